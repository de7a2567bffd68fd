select now()::time(2) as t, datname, coalesce(wait_event_type,'CPU') as wtype, coalesce(wait_event,'-') as wevent, substr(regexp_replace(query, '\s+', ' ', 'g'),1,50) as q
from pg_stat_activity where backend_type='client backend' and state='active' and pid <> pg_backend_pid()
\watch 0.1
