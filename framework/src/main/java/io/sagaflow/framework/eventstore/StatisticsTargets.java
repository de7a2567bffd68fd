package io.sagaflow.framework.eventstore;

import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The statistics target of a service's tables (ADR 0043). {@code ANALYZE} samples 300 rows per unit of a column's
 * target, so PostgreSQL's default of 100 reads 30 000 rows of a table each time autovacuum finds it grown by a tenth:
 * 0.3-0.4 s of CPU for an event table of some 200 000 rows, as often as every minute while the system runs. Every
 * statement of ours finds its rows by a key or an indexed status, for which 3 000 rows (a target of 10) describe a
 * column as well, for a tenth of the work.
 *
 * <p>Applied after every migration, so that tables and columns later migrations add are covered on the same start. It
 * changes only columns still at the server's default (-1, or null from PostgreSQL 17 on): a start that finds nothing
 * new alters nothing and takes no lock, and a column a migration gave a target of its own keeps it. Replicas starting
 * together on a new schema alter the same columns in the same order, so one waits for the other instead of
 * deadlocking.
 */
public final class StatisticsTargets {

    /** The target every column left at the default gets. */
    public static final int TARGET = 10;

    private static final String APPLY = """
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
                    order by c.oid, a.attnum
                loop
                    execute format('alter table %I alter column %I set statistics %s',
                                   col.table_name, col.column_name, TARGET_VALUE);
                end loop;
            end
            $$
            """.replace("TARGET_VALUE", Integer.toString(TARGET));

    private StatisticsTargets() {}

    /** Gives every column of the current schema that is still at the default the target {@link #TARGET}. */
    public static void apply(DataSource dataSource) {
        new JdbcTemplate(dataSource).execute(APPLY);
    }
}
