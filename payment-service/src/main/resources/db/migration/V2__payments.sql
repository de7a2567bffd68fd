-- Read models of the payment service, kept by PaymentProjection in the transaction of every append and rebuildable
-- by replay. PENDING exists only inside the append that authorises a payment (its outcome follows in the same one).

create table payment_view (
    payment_id      uuid primary key,
    order_id        uuid        not null,
    customer_id     uuid,
    amount          numeric     not null,
    currency        text        not null,
    method          text        not null,
    status          text        not null check (status in ('PENDING', 'CAPTURED', 'DECLINED', 'REFUNDED')),
    decline_code    text,
    reason          text,
    refunded_amount numeric     not null default 0,
    created_at      timestamptz not null,
    updated_at      timestamptz not null
);

create index payment_view_by_order on payment_view (order_id, created_at);

-- One row per customer: the totals behind the credit check, and the row its transactions lock (select … for update)
-- so that one customer's payments are authorised one after the other.
create table customer_credit (
    customer_id uuid primary key,
    captured    numeric     not null default 0,
    refunded    numeric     not null default 0,
    updated_at  timestamptz not null default now()
);
