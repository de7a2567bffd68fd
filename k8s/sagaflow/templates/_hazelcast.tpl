{{/*
The shared cluster members' hazelcast.yaml. The ringbuffer and reliable-topic settings mirror what the framework gives
an in-process shared member (HazelcastConfigs.addTopic) and are rendered from the same values as the services'
sagaflow.hazelcast.shared.topic.*; .ci/validate-k8s loads this file with Hazelcast and compares the two.
*/}}
{{- define "sagaflow.hazelcastConfig" -}}
{{- $hz := .Values.sharedCluster }}
{{- $topic := $hz.topic }}
{{- $properties := dict
  "hazelcast.phone.home.enabled" "false"
  "hazelcast.partition.count" ($hz.partitionCount | toString)
  "hazelcast.shutdownhook.enabled" "true"
  "hazelcast.shutdownhook.policy" "GRACEFUL"
  "hazelcast.graceful.shutdown.max.wait" ($hz.gracefulShutdownSeconds | toString) }}
{{- if $hz.metrics.enabled }}
{{- $_ := set $properties "hazelcast.jmx" "true" }}
{{- end }}
{{- $config := dict "hazelcast" (dict
  "cluster-name" $hz.clusterName
  "properties" $properties
  "network" (dict
    "port" (dict "port" 5701 "auto-increment" false)
    "rest-api" (dict
      "enabled" true
      "endpoint-groups" (dict
        "HEALTH_CHECK" (dict "enabled" true)
        "CLUSTER_READ" (dict "enabled" false)))
    "join" (dict
      "auto-detection" (dict "enabled" false)
      "multicast" (dict "enabled" false)
      "tcp-ip" (dict "enabled" false)
      "kubernetes" (dict
        "enabled" true
        "service-dns" (printf "%s.%s.svc.%s" (include "sagaflow.sharedClusterMembersName" .) .Release.Namespace .Values.clusterDomain)
        "service-port" 5701)))
  "jet" (dict "enabled" false)
  "map" (dict "default" (dict
    "backup-count" 1
    "eviction" (dict "eviction-policy" "LRU" "max-size-policy" "PER_NODE" "size" 1000)))
  "ringbuffer" (dict (printf "%s.*" $topic.prefix) (dict
    "capacity" $topic.capacity
    "time-to-live-seconds" $topic.ttlSeconds
    "backup-count" 1
    "async-backup-count" 0))
  "reliable-topic" (dict (printf "%s.*" $topic.prefix) (dict
    "topic-overload-policy" "BLOCK"
    "read-batch-size" $topic.readBatchSize
    "statistics-enabled" true))) }}
{{- toYaml $config }}
{{- end }}
