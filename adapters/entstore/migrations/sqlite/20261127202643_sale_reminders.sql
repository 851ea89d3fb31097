-- Disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- Create "new_notifications" table
CREATE TABLE `new_notifications` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `user_id` integer NOT NULL, `kind` text NOT NULL, `group_key` text NOT NULL, `actor_id` integer NOT NULL DEFAULT (0), `actor_count` integer NOT NULL DEFAULT (0), `blog_id` integer NOT NULL DEFAULT (0), `comment_id` integer NOT NULL DEFAULT (0), `order_id` integer NOT NULL DEFAULT (0), `voucher_id` integer NOT NULL DEFAULT (0), `seq` integer NOT NULL, `read_at` datetime NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL);
-- Copy rows from old table "notifications" to new temporary table "new_notifications"
INSERT INTO `new_notifications` (`id`, `user_id`, `kind`, `group_key`, `actor_id`, `actor_count`, `blog_id`, `comment_id`, `order_id`, `seq`, `read_at`, `created_at`, `updated_at`) SELECT `id`, `user_id`, `kind`, `group_key`, `actor_id`, `actor_count`, `blog_id`, `comment_id`, `order_id`, `seq`, `read_at`, `created_at`, `updated_at` FROM `notifications`;
-- Drop "notifications" table after copying rows
DROP TABLE `notifications`;
-- Rename temporary table "new_notifications" to "notifications"
ALTER TABLE `new_notifications` RENAME TO `notifications`;
-- Create index "notification_user_id_seq" to table: "notifications"
CREATE UNIQUE INDEX `notification_user_id_seq` ON `notifications` (`user_id`, `seq`);
-- Create index "notification_user_id_group_key" to table: "notifications"
CREATE UNIQUE INDEX `notification_user_id_group_key` ON `notifications` (`user_id`, `group_key`) WHERE read_at IS NULL;
-- Create "sale_reminders" table
CREATE TABLE `sale_reminders` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `user_id` integer NOT NULL, `voucher_id` integer NOT NULL, `created_at` datetime NOT NULL, `sent_at` datetime NULL);
-- Create index "salereminder_user_id_voucher_id" to table: "sale_reminders"
CREATE UNIQUE INDEX `salereminder_user_id_voucher_id` ON `sale_reminders` (`user_id`, `voucher_id`);
-- Create index "salereminder_voucher_id_user_id" to table: "sale_reminders"
CREATE INDEX `salereminder_voucher_id_user_id` ON `sale_reminders` (`voucher_id`, `user_id`);
-- Create index "salereminder_waiting" to table: "sale_reminders"
CREATE INDEX `salereminder_waiting` ON `sale_reminders` (`voucher_id`, `id`) WHERE sent_at IS NULL;
-- Enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;
