-- Customers. See io.sagaflow.account.customer.

-- The customer view: one row per customer, kept by CustomerViewProjection in the transaction of every append and
-- rebuildable from the event store; timestamps are those of the events.
create table customer_view (
    customer_id uuid primary key,
    email       text        not null,
    name        text        not null,
    address     text,
    phone       text,
    status      text        not null check (status in ('ACTIVE', 'SUSPENDED', 'CLOSED')),
    created_at  timestamptz not null,
    updated_at  timestamptz not null
);

-- The list endpoint: newest first.
create index customer_view_newest on customer_view (created_at desc, customer_id desc);

-- Email claims: the write side's guard that one email belongs to one customer. A registration inserts its claim in
-- the same transaction as its CustomerRegistered event, so of two racing registrations of one email exactly one
-- commits. Not a read model: a projection rebuild never touches it.
create table customer_email_claim (
    email       text primary key check (email = lower(email)),
    customer_id uuid        not null unique,
    claimed_at  timestamptz not null default now()
);
