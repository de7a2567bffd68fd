-- ANALYZE samples 300 rows per unit of a column's statistics target, so the default target of 100 reads 30 000 rows
-- of a table each time autovacuum finds it grown by a tenth: 0.4-0.7 s of CPU for an event table of some 200 000
-- rows, as often as every minute while the system runs. Every query of ours finds its rows by a key or an indexed
-- status, for which 3 000 rows (a target of 10) describe a column as well, for a tenth of the work
-- (docs/adr/0043-smaller-statistics-samples.md).
--
-- A callback, not a migration: it runs after every migrate, so it also covers tables and columns that later
-- migrations add. It alters only columns still at the server's default (-1, or null from PostgreSQL 17 on): a start
-- that finds nothing new takes no lock, and a column a migration gave a target of its own keeps it.
do $$
declare
    col record;
begin
    for col in
        select c.relname as table_name, a.attname as column_name
        from pg_attribute a
        join pg_class c on c.oid = a.attrelid
        where c.relnamespace = current_schema()::regnamespace
          and c.relkind in ('r', 'p')
          and c.relname <> 'flyway_schema_history'
          and a.attnum > 0
          and not a.attisdropped
          and (a.attstattarget is null or a.attstattarget < 0)
    loop
        execute format('alter table %I alter column %I set statistics 10', col.table_name, col.column_name);
    end loop;
end
$$;
