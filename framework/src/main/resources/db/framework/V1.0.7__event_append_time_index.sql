-- A consumer that missed messages asks their publisher to publish again what it appended since a time
-- (docs/adr/0093-a-consumer-that-missed-messages-asks-their-publisher-again.md). Events arrive in time order, so a
-- BRIN index finds the recent ones without reading the whole event store, at next to no cost per append.

create index es_event_occurred_at on es_event using brin (occurred_at);
