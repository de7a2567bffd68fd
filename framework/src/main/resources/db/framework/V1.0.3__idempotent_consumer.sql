-- Idempotent consumption: (consumer, event id) recorded in the same transaction as the consumer's effects.
-- See docs/adr/0004-idempotent-consumption.md.

create table consumer_processed_event (
    consumer     text        not null,
    event_id     uuid        not null,
    processed_at timestamptz not null default now(),
    primary key (consumer, event_id)
);

create index consumer_processed_event_age on consumer_processed_event (processed_at);

-- Where each consumer resumes on each shard of the shared topic after a restart.
create table consumer_checkpoint (
    consumer   text        not null,
    shard      int         not null,
    sequence   bigint      not null,
    updated_at timestamptz not null default now(),
    primary key (consumer, shard)
);
