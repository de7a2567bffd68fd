-- Read models of the order service, maintained in the same transaction as the events they show.

create table order_view (
    order_id         uuid primary key,
    customer_id      uuid        not null,
    status           text        not null,
    cancel_code      text,
    cancel_reason    text,
    cancelled_by     text,
    line_items       jsonb       not null,
    subtotal         numeric(14, 2) not null,
    tax              numeric(14, 2) not null,
    total            numeric(14, 2) not null,
    shipping_address text        not null,
    created_at       timestamptz not null,
    updated_at       timestamptz not null
);
create index order_view_customer on order_view (customer_id, created_at desc);

create table saga_view (
    saga_id        uuid primary key,
    status         text        not null,
    current_step   text        not null,
    steps          jsonb       not null,
    started_at     timestamptz not null,
    completed_at   timestamptz,
    deadline       timestamptz,
    failure_reason text,
    updated_at     timestamptz not null
);
create index saga_view_status on saga_view (status, started_at desc);

-- Copies of what the order service needs from the other services, fed by their published events.
create table product_copy (
    product_id uuid primary key,
    sku        text           not null,
    name       text           not null,
    price      numeric(14, 2) not null
);

create table customer_copy (
    customer_id uuid primary key,
    status      text not null
);
