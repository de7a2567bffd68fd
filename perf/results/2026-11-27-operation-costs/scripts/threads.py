# threads.py SECONDS PID...: CPU of each JVM's threads over SECONDS, grouped by name with digits folded, in % of a core.
import glob, os, re, sys, time, collections
dur = float(sys.argv[1]); pids = sys.argv[2:]
def snap(pid):
    d = {}
    for t in glob.glob(f'/proc/{pid}/task/*'):
        try:
            comm = open(t+'/comm').read().strip()
            f = open(t+'/stat').read().rsplit(')',1)[1].split()
            d[t] = (comm, int(f[11]) + int(f[12]))
        except OSError: pass
    return d
a = {p: snap(p) for p in pids}; time.sleep(dur); b = {p: snap(p) for p in pids}
hz = os.sysconf('SC_CLK_TCK')
for p in pids:
    agg = collections.Counter(); n = collections.Counter()
    for t, (comm, ticks) in b[p].items():
        key = re.sub(r'\d+', '#', comm)
        agg[key] += ticks - a[p].get(t, (comm, 0))[1]; n[key] += 1
    name = open(f'/proc/{p}/cmdline','rb').read().decode(errors='replace')
    m = re.search(r'([a-z]+-service|api-gateway)', name)
    tot = sum(agg.values())
    print(f"== {m.group(1) if m else p}: {100*tot/hz/dur:.1f}%")
    for k, v in agg.most_common(14):
        if v: print(f"   {100*v/hz/dur:5.1f}%  {n[k]:3d}  {k}")
