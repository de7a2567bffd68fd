-- The messages a consumer gave up on after its attempts, kept whole: nothing it was delivered is lost, and each
-- start of the service has the consumer try them again, so a fixed cause lets them through
-- (docs/adr/0100-a-consumer-parks-what-it-gives-up-on-and-tries-it-again-at-its-next-start.md).

create table consumer_dead_letter (
    consumer           text        not null,
    event_id           uuid        not null,
    source             text        not null,
    stream_id          text        not null,
    version            bigint      not null,
    type               text        not null,
    schema_version     int         not null,
    occurred_at_micros bigint      not null,
    correlation_id     text,
    causation_id       text,
    traceparent        text,
    tracestate         text,
    payload            text        not null,
    failure            text        not null,
    attempts           int         not null,
    failed_at          timestamptz not null default now(),
    primary key (consumer, event_id)
);
