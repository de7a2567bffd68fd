-- Read model of the product streams, written by ProductViewProjection in the transaction of every append.
-- The product_view row is also the lock that serialises stock changes of one product (select ... for update), and
-- its version is the stream version the next append expects.

create table product_view (
    product_id        uuid primary key,
    sku               text          not null,
    name              text          not null,
    description       text,
    price             numeric(14, 2) not null check (price > 0),
    category          text,
    status            text          not null,
    quantity_on_hand  int           not null check (quantity_on_hand >= 0),
    quantity_reserved int           not null,
    version           bigint        not null,
    created_at        timestamptz   not null,
    updated_at        timestamptz   not null,
    constraint product_view_sku_unique unique (sku),
    -- The no-oversell rule once more, in the database: a change that broke it could not commit.
    constraint product_view_reserved_within_on_hand
        check (quantity_reserved >= 0 and quantity_reserved <= quantity_on_hand)
);

create index product_view_listing on product_view (created_at, product_id);

-- Units held per (product, order). quantity is what an active reservation holds; once released entirely the row
-- stays, inactive, with the last quantity it held.
create table stock_reservation (
    product_id  uuid        not null references product_view (product_id),
    order_id    uuid        not null,
    quantity    int         not null check (quantity > 0),
    source      text        not null check (source in ('SAGA', 'API')),
    active      boolean     not null,
    reserved_at timestamptz not null,
    updated_at  timestamptz not null,
    primary key (product_id, order_id)
);

create index stock_reservation_active_by_order on stock_reservation (order_id) where active;
