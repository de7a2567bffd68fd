-- Transactional outbox: rows written in the same transaction as the events they carry, published to the shared
-- topic by whichever replica holds the lease on their bucket. See docs/adr/0003-outbox-and-claiming.md.

create table outbox (
    id             bigint generated always as identity primary key,
    bucket         int         not null,
    event_id       uuid        not null,
    stream_id      text        not null,
    stream_version bigint      not null,
    type           text        not null,
    schema_version int         not null,
    occurred_at    timestamptz not null,
    correlation_id text        not null,
    causation_id   text,
    traceparent    text,
    tracestate     text,
    payload        text        not null,
    created_at     timestamptz not null default now(),
    published_at   timestamptz
);

-- What a relay polls: the pending rows of its buckets, in id order. Stays small as rows get published.
create index outbox_pending on outbox (bucket, id) where published_at is null;
-- What pruning deletes.
create index outbox_published on outbox (published_at) where published_at is not null;
