import json, re, sys, glob, os
d = sys.argv[1]
for run in sorted(glob.glob(os.path.join(d, 'raw', '*-r1.prom-after.json'))):
    name = os.path.basename(run).split('.prom')[0]
    after = json.load(open(run)); before = json.load(open(run.replace('after', 'before')))
    print('==', name)
    def vals(text):
        out = {}
        for line in text.splitlines():
            m = re.match(r'sagaflow_consumer_events_total\{(.*)\} (\S+)', line)
            if m:
                tags = dict(re.findall(r'(\w+)="([^"]*)"', m.group(1)))
                out[(tags['consumer'], tags['outcome'])] = float(m.group(2))
            m = re.match(r'sagaflow_consumer_topics\{(.*)\} (\S+)', line)
            if m:
                tags = dict(re.findall(r'(\w+)="([^"]*)"', m.group(1)))
                out[(tags['consumer'], 'topics')] = float(m.group(2))
        return out
    for proc in sorted(after):
        a = vals(after[proc]); b = vals(before.get(proc, ''))
        for key in sorted(a):
            if key[1] == 'topics':
                print(f'  {proc:22s} {key[0]:22s} topics held {a[key]:.0f}')
            else:
                print(f'  {proc:22s} {key[0]:22s} {key[1]:9s} {a[key]-b.get(key,0):8.0f}')
