# jfr_threads.py RECORDING [N]: execution samples by thread group and outermost io.sagaflow frame.
import json,sys,collections,subprocess
f=sys.argv[1]
out=subprocess.run(['/usr/lib/jvm/temurin-25-jdk-amd64/bin/jfr','print','--json','--stack-depth','96','--events','jdk.ExecutionSample',f],capture_output=True,text=True).stdout
ev=json.loads(out)['recording']['events']
groups=collections.Counter(); libs=collections.Counter(); n=0
for e in ev:
    v=e['values']; th=v['sampledThread']; name=th.get('javaName') or th.get('osName') or ''
    fr=v['stackTrace']['frames'] if v.get('stackTrace') else []
    names=[x['method']['type']['name'].replace('/','.')+'.'+x['method']['name'] for x in fr]
    n+=1
    app=[x for x in names if x.startswith('io.sagaflow')]
    import re
    tg=re.sub(r'\d+','#',name)
    entry=app[-1] if app else ('<'+names[-1]+'>' if names else '?')
    groups[(tg[:40],entry)]+=1
print('samples',n)
for (tg,en),c in groups.most_common(int(sys.argv[2]) if len(sys.argv)>2 else 40): print(f"{100*c/n:5.1f} {tg:40s} {en}")
