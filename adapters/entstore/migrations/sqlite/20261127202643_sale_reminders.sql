-- Create "sale_reminders" table
CREATE TABLE `sale_reminders` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `user_id` integer NOT NULL, `voucher_id` integer NOT NULL, `created_at` datetime NOT NULL, `sent_at` datetime NULL);
-- Create index "salereminder_user_id_voucher_id" to table: "sale_reminders"
CREATE UNIQUE INDEX `salereminder_user_id_voucher_id` ON `sale_reminders` (`user_id`, `voucher_id`);
-- Create index "salereminder_voucher_id_user_id" to table: "sale_reminders"
CREATE INDEX `salereminder_voucher_id_user_id` ON `sale_reminders` (`voucher_id`, `user_id`);
-- Create index "salereminder_waiting" to table: "sale_reminders"
CREATE INDEX `salereminder_waiting` ON `sale_reminders` (`voucher_id`, `id`) WHERE sent_at IS NULL;
