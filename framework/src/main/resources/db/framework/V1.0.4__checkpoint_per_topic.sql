-- Each publisher's events travel on topics of their own (docs/adr/0019-topics-per-publisher.md), so a consumer's
-- resume points are kept per topic name instead of per shard number. The old per-shard sequences point into topics
-- nothing publishes to any more; they are dropped.

drop table consumer_checkpoint;

create table consumer_checkpoint (
    consumer   text        not null,
    topic      text        not null,
    sequence   bigint      not null,
    updated_at timestamptz not null default now(),
    primary key (consumer, topic)
);
