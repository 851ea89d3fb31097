-- Disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- Create "new_payments" table
CREATE TABLE `new_payments` (`id` integer NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `order_id` integer NOT NULL, `user_id` integer NOT NULL, `amount` integer NOT NULL, `status` text NOT NULL DEFAULT ('PENDING'), `provider` text NOT NULL DEFAULT (''), `provider_ref` text NOT NULL DEFAULT (''), `paid_at` datetime NULL, `refunded_at` datetime NULL, `refund_reason` text NOT NULL DEFAULT (''), `refund_amount` integer NOT NULL DEFAULT (0), `fail_reason` text NOT NULL DEFAULT (''), PRIMARY KEY (`id`));
-- Copy rows from old table "payments" to new temporary table "new_payments"
INSERT INTO `new_payments` (`id`, `created_at`, `updated_at`, `order_id`, `user_id`, `amount`, `status`, `provider`, `provider_ref`, `paid_at`, `refunded_at`, `refund_reason`) SELECT `id`, `created_at`, `updated_at`, `order_id`, `user_id`, `amount`, `status`, `provider`, `provider_ref`, `paid_at`, `refunded_at`, `refund_reason` FROM `payments`;
-- Drop "payments" table after copying rows
DROP TABLE `payments`;
-- Rename temporary table "new_payments" to "payments"
ALTER TABLE `new_payments` RENAME TO `payments`;
-- Create index "payment_order_id" to table: "payments"
CREATE INDEX `payment_order_id` ON `payments` (`order_id`);
-- Create index "payment_one_open_per_order" to table: "payments"
CREATE UNIQUE INDEX `payment_one_open_per_order` ON `payments` (`order_id`) WHERE status = 'PENDING';
-- Create index "payment_refunds_due" to table: "payments"
CREATE INDEX `payment_refunds_due` ON `payments` (`status`) WHERE status = 'REFUND_PENDING';
-- Create "new_voucher_orders" table
CREATE TABLE `new_voucher_orders` (`id` integer NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `user_id` integer NOT NULL, `voucher_id` integer NOT NULL, `shop_id` integer NOT NULL DEFAULT (0), `kind` text NOT NULL DEFAULT ('FLASH_SALE'), `quantity` integer NOT NULL DEFAULT (1), `redeemed_quantity` integer NOT NULL DEFAULT (0), `amount` integer NOT NULL DEFAULT (0), `status` text NOT NULL DEFAULT ('CREATED'), `pay_deadline` datetime NULL, `pay_time` datetime NULL, `use_time` datetime NULL, `canceled_at` datetime NULL, `cancel_reason` text NOT NULL DEFAULT (''), `fail_reason` text NOT NULL DEFAULT (''), `refund_time` datetime NULL, `refund_reason` text NOT NULL DEFAULT (''), `redemption_code` text NULL, PRIMARY KEY (`id`));
-- Copy rows from old table "voucher_orders" to new temporary table "new_voucher_orders"
INSERT INTO `new_voucher_orders` (`id`, `created_at`, `updated_at`, `user_id`, `voucher_id`, `shop_id`, `kind`, `quantity`, `amount`, `status`, `pay_deadline`, `pay_time`, `use_time`, `canceled_at`, `cancel_reason`, `fail_reason`, `refund_time`, `refund_reason`, `redemption_code`) SELECT `id`, `created_at`, `updated_at`, `user_id`, `voucher_id`, `shop_id`, `kind`, `quantity`, `amount`, `status`, `pay_deadline`, `pay_time`, `use_time`, `canceled_at`, `cancel_reason`, `fail_reason`, `refund_time`, `refund_reason`, `redemption_code` FROM `voucher_orders`;
-- Drop "voucher_orders" table after copying rows
DROP TABLE `voucher_orders`;
-- Rename temporary table "new_voucher_orders" to "voucher_orders"
ALTER TABLE `new_voucher_orders` RENAME TO `voucher_orders`;
-- Create index "voucher_orders_redemption_code_key" to table: "voucher_orders"
CREATE UNIQUE INDEX `voucher_orders_redemption_code_key` ON `voucher_orders` (`redemption_code`);
-- Create index "voucherorder_one_live_flash_order" to table: "voucher_orders"
CREATE UNIQUE INDEX `voucherorder_one_live_flash_order` ON `voucher_orders` (`user_id`, `voucher_id`) WHERE kind = 'FLASH_SALE' AND status IN ('PENDING', 'CREATED', 'PAID', 'USED');
-- Create index "voucherorder_user_id_id" to table: "voucher_orders"
CREATE INDEX `voucherorder_user_id_id` ON `voucher_orders` (`user_id`, `id`);
-- Create index "voucherorder_voucher_id" to table: "voucher_orders"
CREATE INDEX `voucherorder_voucher_id` ON `voucher_orders` (`voucher_id`);
-- Create index "voucherorder_shop_id_id" to table: "voucher_orders"
CREATE INDEX `voucherorder_shop_id_id` ON `voucher_orders` (`shop_id`, `id`);
-- Create index "voucherorder_unpaid_by_deadline" to table: "voucher_orders"
CREATE INDEX `voucherorder_unpaid_by_deadline` ON `voucher_orders` (`pay_deadline`) WHERE status = 'CREATED';
-- Enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;
