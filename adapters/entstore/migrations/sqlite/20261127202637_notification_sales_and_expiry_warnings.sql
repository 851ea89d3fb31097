-- Disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- Add column "expiry_warned_at" to table: "voucher_orders"
ALTER TABLE `voucher_orders` ADD COLUMN `expiry_warned_at` datetime NULL;
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
-- Create "new_notification_settings" table
CREATE TABLE `new_notification_settings` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `user_id` integer NOT NULL, `likes` bool NOT NULL DEFAULT (true), `comments` bool NOT NULL DEFAULT (true), `follows` bool NOT NULL DEFAULT (true), `orders` bool NOT NULL DEFAULT (true), `followed_notes` bool NOT NULL DEFAULT (false), `shop_sales` bool NOT NULL DEFAULT (true));
-- Copy rows from old table "notification_settings" to new temporary table "new_notification_settings"
INSERT INTO `new_notification_settings` (`id`, `created_at`, `updated_at`, `user_id`, `likes`, `comments`, `follows`, `orders`, `followed_notes`) SELECT `id`, `created_at`, `updated_at`, `user_id`, `likes`, `comments`, `follows`, `orders`, `followed_notes` FROM `notification_settings`;
-- Drop "notification_settings" table after copying rows
DROP TABLE `notification_settings`;
-- Rename temporary table "new_notification_settings" to "notification_settings"
ALTER TABLE `new_notification_settings` RENAME TO `notification_settings`;
-- Create index "notificationsetting_user_id" to table: "notification_settings"
CREATE UNIQUE INDEX `notificationsetting_user_id` ON `notification_settings` (`user_id`);
-- Enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;
