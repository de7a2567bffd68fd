"""Opens N keep-alive connections to the gateway, one request each (GET /actuator/health/liveness), keeps them open
and reads the gateway's heap after a full collection. Usage: idle.py N GATEWAY_PID"""
import http.client, os, re, subprocess, sys, time
n, gw = int(sys.argv[1]), int(sys.argv[2])
jcmd = os.environ["JAVA_HOME"] + "/bin/jcmd"
def heap():
    subprocess.run([jcmd, str(gw), "GC.run"], capture_output=True)
    out = subprocess.run([jcmd, str(gw), "GC.heap_info"], capture_output=True, text=True).stdout
    used = [int(m) for m in re.findall(r"total \d+K, used (\d+)K", out)]
    return f"young {used[0]//1024} MB, old {used[1]//1024} MB"
print("before:", heap(), flush=True)
conns, statuses = [], {}
for i in range(n):
    c = http.client.HTTPConnection("127.0.0.1", 8080, timeout=5)
    try:
        c.request("GET", "/actuator/health/liveness"); r = c.getresponse(); r.read()
        statuses[r.status] = statuses.get(r.status, 0) + 1
    except Exception as e:
        statuses[type(e).__name__] = statuses.get(type(e).__name__, 0) + 1
    conns.append(c)
print(f"{n} idle connections open ({statuses}):", heap(), flush=True)
for c in conns: c.close()
time.sleep(2)
print("closed:", heap())
