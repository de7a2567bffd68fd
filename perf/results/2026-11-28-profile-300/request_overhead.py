"""Of the JFR CPU samples on threads whose name holds THREADS, those with no Sagaflow frame below the servlet filters
(time in Tomcat, Spring MVC, Jackson, validation and Micrometer around the controllers), and the frames they hold.

    JAVA_HOME=... python3 request_overhead.py RECORDING.jfr tomcat-handler [TOP]
"""
import collections, json, os, subprocess, sys
rec, tp = sys.argv[1], sys.argv[2]
out = subprocess.run([os.path.join(os.environ["JAVA_HOME"], "bin", "jfr"), "print", "--json", "--stack-depth", "160",
                      "--events", "jdk.ExecutionSample", rec], capture_output=True, text=True, check=True).stdout
ev = json.loads(out)["recording"]["events"]
total = 0; over = 0; incl = collections.Counter(); selfc = collections.Counter()
for e in ev:
    v = e["values"]; t = (v.get("sampledThread") or {}).get("javaName") or "?"
    if tp not in t: continue
    total += 1
    fr = [f["method"]["type"]["name"].replace("/", ".") + "." + f["method"]["name"] for f in v["stackTrace"]["frames"]]
    app = [f for f in fr if f.startswith("io.sagaflow") and ".web.CorrelationFilter" not in f and ".web.InFlightLimitFilter" not in f]
    if app: continue
    over += 1
    selfc[fr[0] if fr else "?"] += 1
    for m in set(fr): incl[m] += 1
print(f"{over} of {total} samples on {tp} have no app frame ({100*over/max(total,1):.1f} %)")
for m, c in incl.most_common(int(sys.argv[3]) if len(sys.argv) > 3 else 70): print(f"{100*c/total:5.1f} {m}")
print("--- self"); [print(f"{100*c/total:5.1f} {m}") for m, c in selfc.most_common(20)]
