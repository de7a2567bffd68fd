"""Run-queue wait of each process group between the snapshots of sched.py within a window: window.py HH:MM:SS HH:MM:SS
(UTC, today), reading SNAPS (default /tmp/sched-snaps) of files <epoch>.json."""
import glob, json, os, sys, time, calendar
SNAPS = os.environ.get('SNAPS', '/tmp/sched-snaps')
def ts(s):  # 'HH:MM:SS' today UTC
    d = time.strftime('%Y-%m-%d', time.gmtime())
    return calendar.timegm(time.strptime(d + ' ' + s, '%Y-%m-%d %H:%M:%S'))
t0, t1 = ts(sys.argv[1]), ts(sys.argv[2])
snaps = sorted(int(os.path.basename(f)[:-5]) for f in glob.glob(f'{SNAPS}/*.json'))
a = min((s for s in snaps if s >= t0), default=None); b = max((s for s in snaps if s <= t1), default=None)
A = json.load(open(f'{SNAPS}/{a}.json')); B = json.load(open(f'{SNAPS}/{b}.json'))
print(f'window {b - a} s')
print(f"{'group':26} {'cpu %':>7} {'wait/cpu':>8} {'wait/slice ms':>13}")
for k in sorted(B):
    r = [B[k][i] - A.get(k, [0, 0, 0])[i] for i in range(3)]
    if r[2] <= 0 or r[0] < 0: continue
    print(f"{k:26} {100 * r[0] / 1e9 / (b - a):7.1f} {r[1] / max(r[0], 1):8.2f} {r[1] / r[2] / 1e6:13.3f}")
