"""Holds N concurrent POST /api/orders through the gateway while the order service is stopped (SIGSTOP), then reads
the gateway's heap after a full collection. Usage: hold.py N ORDER_PID GATEWAY_PID"""
import http.client, json, os, signal, subprocess, sys, threading, time, uuid
n, order_pid, gw_pid = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
jcmd = os.environ["JAVA_HOME"] + "/bin/jcmd"
def heap():
    subprocess.run([jcmd, str(gw_pid), "GC.run"], capture_output=True)
    out = subprocess.run([jcmd, str(gw_pid), "GC.heap_info"], capture_output=True, text=True).stdout
    import re
    used = [int(m) for m in re.findall(r"total \d+K, used (\d+)K", out)]
    return f"young {used[0]//1024} MB, old {used[1]//1024} MB" if len(used) >= 2 else out[:200]
results = []
def post(i):
    try:
        c = http.client.HTTPConnection("127.0.0.1", 8080, timeout=60)
        body = json.dumps({"customerId": str(uuid.uuid4()), "lineItems": [{"productId": str(uuid.uuid4()), "quantity": 1}], "shippingAddress": "x" * 40})
        c.request("POST", "/api/orders", body, {"Content-Type": "application/json", "Idempotency-Key": str(uuid.uuid4())})
        r = c.getresponse(); r.read(); results.append(r.status)
    except Exception as e:
        results.append(type(e).__name__)
print("before:", heap(), flush=True)
os.kill(order_pid, signal.SIGSTOP)
try:
    threads = [threading.Thread(target=post, args=(i,)) for i in range(n)]
    for t in threads: t.start()
    time.sleep(2.5)
    print(f"holding {n}:", heap(), flush=True)
finally:
    os.kill(order_pid, signal.SIGCONT)
for t in threads: t.join()
from collections import Counter
print("answers:", Counter(results))
print("after:", heap())
