import collections,sys,re
d=sys.argv[1]
rows=[l.rstrip('\n').split('|') for l in open(d+'/samples.txt') if l.count('|')>=10]
bl={}
for r in rows:
    t,w,wms,b,state,wet,we,sms,xms,q,wq=r[:11]
    bl[(t,b)]=(state,wet,we,q[:40])
print('waiter-samples',len(rows),'blocker-samples',len(bl))
c=collections.Counter((v[0],v[1],v[2]) for v in bl.values())
for k,n in c.most_common(6): print('  ',n,k)
m=collections.Counter(r[0][:5] for r in rows); print('  per minute', sorted(m.items()))
k=open(d+'/k6.log').read()
for pat in ['http_req_duration\\.+: (.*)','http_req_failed\\.+: (.*)','dropped_iterations\\.+: (.*)','unexpected_responses\\.+: (.*)','\\n\\s*iterations\\.+: (.*)']:
    mm=re.search(pat,k); print('  ',pat.split('\\')[-2].split('s*')[-1] if pat.startswith('\\n') else pat.split('\\')[0], mm.group(1)[:130] if mm else None)
for pat in ['saga_e2e[^:]*: (.*)']:
    for mm in re.finditer(pat,k): print('  saga', mm.group(1)[:130])
