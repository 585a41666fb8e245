-- Prices per unit (issue #21): a paid job reserves price x an upper bound of its quantity when it
-- is accepted and settles price x the quantity it made when it completes. Ledger rows of both
-- steps say how many units at what price; the job keeps what was reserved and what was charged.
ALTER TABLE wallet_ledger
    ADD COLUMN quantity BIGINT NULL,
    ADD COLUMN unit_price_units BIGINT NULL;

ALTER TABLE jobs
    ADD COLUMN reserved_units BIGINT NULL,
    ADD COLUMN charged_units BIGINT NULL;
