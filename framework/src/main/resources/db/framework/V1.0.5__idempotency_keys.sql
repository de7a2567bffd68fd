-- The Idempotency-Key of each creating request that was carried out, written in the same transaction as the events it
-- appended, so that a request made again with the same key is answered with what the first one made instead of being
-- carried out twice (docs/adr/0070-idempotency-keys.md). Kept for a retention period, then pruned.

create table idempotency_key (
    scope       text        not null,
    key         text        not null,
    fingerprint text        not null,
    stream_id   text        not null,
    created_at  timestamptz not null default now(),
    primary key (scope, key)
);

-- Rows arrive in time order, so a BRIN index finds the expired ones for the pruning at next to no cost per insert.
create index idempotency_key_age on idempotency_key using brin (created_at);
