-- Modify "voucher_orders" table
ALTER TABLE "voucher_orders" ADD COLUMN "fail_reason" character varying NOT NULL DEFAULT '';
