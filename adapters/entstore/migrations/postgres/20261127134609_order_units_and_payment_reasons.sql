-- Modify "payments" table
ALTER TABLE "payments" ADD COLUMN "refund_amount" bigint NOT NULL DEFAULT 0, ADD COLUMN "fail_reason" character varying NOT NULL DEFAULT '';
-- Modify "voucher_orders" table
ALTER TABLE "voucher_orders" ADD COLUMN "redeemed_quantity" bigint NOT NULL DEFAULT 0;
