-- Modify "notification_settings" table
ALTER TABLE "notification_settings" ADD COLUMN "shop_sales" boolean NOT NULL DEFAULT true;
-- Modify "notifications" table
ALTER TABLE "notifications" ADD COLUMN "voucher_id" bigint NOT NULL DEFAULT 0;
-- Modify "voucher_orders" table
ALTER TABLE "voucher_orders" ADD COLUMN "expiry_warned_at" timestamptz NULL;
