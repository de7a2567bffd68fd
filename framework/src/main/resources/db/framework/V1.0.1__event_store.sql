-- Event store: one row per stream (its current version, the optimistic-concurrency lock) and one per event.
-- Global order is (transaction_id, global_sequence); readers only see transactions older than every running one.
-- See docs/adr/0002-event-store-schema-and-global-order.md.

create table es_stream (
    stream_id  text primary key,
    version    bigint      not null check (version > 0),
    updated_at timestamptz not null default now()
);

create table es_event (
    stream_id       text        not null,
    version         bigint      not null check (version > 0),
    global_sequence bigint      generated always as identity,
    transaction_id  xid8        not null default pg_current_xact_id(),
    event_id        uuid        not null,
    type            text        not null,
    schema_version  int         not null,
    occurred_at     timestamptz not null,
    correlation_id  text        not null,
    causation_id    text,
    traceparent     text,
    tracestate      text,
    payload         jsonb       not null,
    primary key (stream_id, version),
    constraint es_event_id_unique unique (event_id)
);

create index es_event_global_order on es_event (transaction_id, global_sequence);

create table es_snapshot (
    stream_id      text primary key,
    version        bigint      not null,
    type           text        not null,
    schema_version int         not null,
    state          jsonb       not null,
    taken_at       timestamptz not null default now()
);
