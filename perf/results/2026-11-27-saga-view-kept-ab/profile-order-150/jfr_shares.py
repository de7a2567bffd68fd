# jfr_shares.py RECORDING THREAD PATTERN...: of the execution samples of threads whose name contains THREAD, the share
# whose stack holds each PATTERN, the innermost io.sagaflow frame, and the self time by package.
import json,sys,collections,subprocess,re
f=sys.argv[1]; thr=sys.argv[2]; pats=sys.argv[3:]
out=subprocess.run(['/usr/lib/jvm/temurin-25-jdk-amd64/bin/jfr','print','--json','--stack-depth','128','--events','jdk.ExecutionSample',f],capture_output=True,text=True).stdout
ev=json.loads(out)['recording']['events']
n=0; c=collections.Counter(); app=collections.Counter(); selfpk=collections.Counter()
for e in ev:
    v=e['values']; th=v['sampledThread']; name=th.get('javaName') or th.get('osName') or ''
    if thr not in name: continue
    fr=v['stackTrace']['frames'] if v.get('stackTrace') else []
    names=[x['method']['type']['name'].replace('/','.')+'.'+x['method']['name'] for x in fr]
    n+=1
    for p in pats:
        if any(p in x for x in names): c[p]+=1
    a=[x for x in names if x.startswith('io.sagaflow')]
    if a: app[a[0]]+=1
    if names:
        top=names[0]; pk='.'.join(top.split('.')[:3]); selfpk[pk]+=1
print(thr,'samples',n)
for p in pats: print(f"{100*c[p]/n:5.1f} {p}")
print('-- innermost sagaflow frame')
for k,v in app.most_common(25): print(f"{100*v/n:5.1f} {k}")
print('-- self by package')
for k,v in selfpk.most_common(25): print(f"{100*v/n:5.1f} {k}")
