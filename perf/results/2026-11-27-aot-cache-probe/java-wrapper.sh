#!/bin/bash
# Experiment wrapper: runs a service from its extracted jar, training (AOT_MODE=train) or using (use) an AOT cache.
REAL=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
args=(); extra=()
for a in "$@"; do
  if [[ "$a" == *-exec.jar && "$AOT_MODE" != "" ]]; then
    name=$(basename "$a"); svc=${name%%-service-0.1.0-SNAPSHOT-exec.jar}
    if [ -f "/tmp/aotx/$svc/$name" ]; then
      a="/tmp/aotx/$svc/$name"
      case "$AOT_MODE" in
        train) extra+=("-XX:AOTCacheOutput=/tmp/aotx/$svc.aot" "-Xlog:aot*=info:file=/tmp/aotx/$svc-train.log") ;;
        use) extra+=("-XX:AOTCache=/tmp/aotx/$svc.aot" "-Xlog:aot=info:file=/tmp/aotx/$svc-use.log") ;;
      esac
    fi
  fi
  args+=("$a")
done
exec "$REAL" "${extra[@]}" "${args[@]}"
