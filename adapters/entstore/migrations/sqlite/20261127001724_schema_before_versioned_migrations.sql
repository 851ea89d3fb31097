-- Disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- Create "new_blogs" table
CREATE TABLE `new_blogs` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `shop_id` integer NOT NULL, `user_id` integer NOT NULL, `title` text NOT NULL, `images` text NOT NULL DEFAULT (''), `content` text NOT NULL DEFAULT (''), `liked` integer NOT NULL DEFAULT (0), `liked_seq` integer NOT NULL DEFAULT (0), `comments` integer NOT NULL DEFAULT (0), `rating` integer NOT NULL DEFAULT (0));
-- Copy rows from old table "blogs" to new temporary table "new_blogs"
INSERT INTO `new_blogs` (`id`, `created_at`, `updated_at`, `shop_id`, `user_id`, `title`, `images`, `content`, `liked`, `comments`) SELECT `id`, `created_at`, `updated_at`, `shop_id`, `user_id`, `title`, `images`, `content`, `liked`, `comments` FROM `blogs`;
-- Drop "blogs" table after copying rows
DROP TABLE `blogs`;
-- Rename temporary table "new_blogs" to "blogs"
ALTER TABLE `new_blogs` RENAME TO `blogs`;
-- Create index "blog_user_id_id" to table: "blogs"
CREATE INDEX `blog_user_id_id` ON `blogs` (`user_id`, `id`);
-- Create index "blog_shop_id_id" to table: "blogs"
CREATE INDEX `blog_shop_id_id` ON `blogs` (`shop_id`, `id`);
-- Create index "blog_liked_id" to table: "blogs"
CREATE INDEX `blog_liked_id` ON `blogs` (`liked`, `id`);
-- Create "new_flash_sales" table
CREATE TABLE `new_flash_sales` (`id` integer NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `stock` integer NOT NULL, `begin_time` datetime NOT NULL, `end_time` datetime NOT NULL, `buckets` integer NOT NULL DEFAULT (1), PRIMARY KEY (`id`), CONSTRAINT `flash_sales_vouchers_flash_sale` FOREIGN KEY (`id`) REFERENCES `vouchers` (`id`) ON DELETE NO ACTION);
-- Copy rows from old table "flash_sales" to new temporary table "new_flash_sales"
INSERT INTO `new_flash_sales` (`id`, `created_at`, `updated_at`, `stock`, `begin_time`, `end_time`) SELECT `id`, `created_at`, `updated_at`, `stock`, `begin_time`, `end_time` FROM `flash_sales`;
-- Drop "flash_sales" table after copying rows
DROP TABLE `flash_sales`;
-- Rename temporary table "new_flash_sales" to "flash_sales"
ALTER TABLE `new_flash_sales` RENAME TO `flash_sales`;
-- Drop index "follow_follow_user_id" from table: "follows"
DROP INDEX `follow_follow_user_id`;
-- Create index "follow_follow_user_id_user_id" to table: "follows"
CREATE INDEX `follow_follow_user_id_user_id` ON `follows` (`follow_user_id`, `user_id`);
-- Create index "follow_follow_user_id_id" to table: "follows"
CREATE INDEX `follow_follow_user_id_id` ON `follows` (`follow_user_id`, `id`);
-- Create index "follow_user_id_id" to table: "follows"
CREATE INDEX `follow_user_id_id` ON `follows` (`user_id`, `id`);
-- Create "new_shops" table
CREATE TABLE `new_shops` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `name` text NOT NULL, `images` text NOT NULL DEFAULT (''), `area` text NOT NULL DEFAULT (''), `address` text NOT NULL DEFAULT (''), `longitude` real NOT NULL, `latitude` real NOT NULL, `avg_price` integer NOT NULL DEFAULT (0), `sold` integer NOT NULL DEFAULT (0), `comments` integer NOT NULL DEFAULT (0), `score` integer NOT NULL DEFAULT (0), `rating_sum` integer NOT NULL DEFAULT (0), `rating_count` integer NOT NULL DEFAULT (0), `open_hours` text NOT NULL DEFAULT (''), `owner_id` integer NULL, `type_id` integer NOT NULL, CONSTRAINT `shops_shop_types_shops` FOREIGN KEY (`type_id`) REFERENCES `shop_types` (`id`) ON DELETE NO ACTION);
-- Copy rows from old table "shops" to new temporary table "new_shops"
INSERT INTO `new_shops` (`id`, `created_at`, `updated_at`, `name`, `images`, `area`, `address`, `longitude`, `latitude`, `avg_price`, `sold`, `comments`, `score`, `open_hours`, `type_id`) SELECT `id`, `created_at`, `updated_at`, `name`, `images`, `area`, `address`, `longitude`, `latitude`, `avg_price`, `sold`, `comments`, `score`, `open_hours`, `type_id` FROM `shops`;
-- Drop "shops" table after copying rows
DROP TABLE `shops`;
-- Rename temporary table "new_shops" to "shops"
ALTER TABLE `new_shops` RENAME TO `shops`;
-- Create index "shop_type_id" to table: "shops"
CREATE INDEX `shop_type_id` ON `shops` (`type_id`);
-- Create index "shop_type_id_id" to table: "shops"
CREATE INDEX `shop_type_id_id` ON `shops` (`type_id`, `id`);
-- Create index "shop_name" to table: "shops"
CREATE INDEX `shop_name` ON `shops` (`name`);
-- Create index "shop_owner_id" to table: "shops"
CREATE INDEX `shop_owner_id` ON `shops` (`owner_id`);
-- Create "new_users" table
CREATE TABLE `new_users` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `phone` text NOT NULL, `nick_name` text NOT NULL DEFAULT (''), `icon` text NOT NULL DEFAULT (''), `role` text NOT NULL DEFAULT ('USER'), `blocked` bool NOT NULL DEFAULT (false), `city` text NOT NULL DEFAULT (''), `introduction` text NOT NULL DEFAULT (''), `gender` text NOT NULL DEFAULT ('UNKNOWN'), `birthday` datetime NULL, `credits` integer NOT NULL DEFAULT (0), `level` integer NOT NULL DEFAULT (0));
-- Copy rows from old table "users" to new temporary table "new_users"
INSERT INTO `new_users` (`id`, `created_at`, `updated_at`, `phone`, `nick_name`, `icon`, `role`, `blocked`) SELECT `id`, `created_at`, `updated_at`, `phone`, `nick_name`, `icon`, `role`, `blocked` FROM `users`;
-- Drop "users" table after copying rows
DROP TABLE `users`;
-- Rename temporary table "new_users" to "users"
ALTER TABLE `new_users` RENAME TO `users`;
-- Create index "users_phone_key" to table: "users"
CREATE UNIQUE INDEX `users_phone_key` ON `users` (`phone`);
-- Create "new_voucher_orders" table
CREATE TABLE `new_voucher_orders` (`id` integer NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `user_id` integer NOT NULL, `voucher_id` integer NOT NULL, `shop_id` integer NOT NULL DEFAULT (0), `kind` text NOT NULL DEFAULT ('FLASH_SALE'), `quantity` integer NOT NULL DEFAULT (1), `amount` integer NOT NULL DEFAULT (0), `status` text NOT NULL DEFAULT ('CREATED'), `pay_deadline` datetime NULL, `pay_time` datetime NULL, `use_time` datetime NULL, `canceled_at` datetime NULL, `cancel_reason` text NOT NULL DEFAULT (''), `refund_time` datetime NULL, `refund_reason` text NOT NULL DEFAULT (''), `redemption_code` text NULL, PRIMARY KEY (`id`));
-- Copy rows from old table "voucher_orders" to new temporary table "new_voucher_orders"
INSERT INTO `new_voucher_orders` (`id`, `created_at`, `updated_at`, `user_id`, `voucher_id`, `status`, `pay_time`, `use_time`, `refund_time`) SELECT `id`, `created_at`, `updated_at`, `user_id`, `voucher_id`, `status`, `pay_time`, `use_time`, `refund_time` FROM `voucher_orders`;
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
-- Create "blog_likes" table
CREATE TABLE `blog_likes` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `blog_id` integer NOT NULL, `user_id` integer NOT NULL, `liked_at` datetime NOT NULL);
-- Create index "bloglike_blog_id_user_id" to table: "blog_likes"
CREATE UNIQUE INDEX `bloglike_blog_id_user_id` ON `blog_likes` (`blog_id`, `user_id`);
-- Create "comments" table
CREATE TABLE `comments` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `blog_id` integer NOT NULL, `user_id` integer NOT NULL, `parent_id` integer NOT NULL DEFAULT (0), `reply_to_user_id` integer NOT NULL DEFAULT (0), `content` text NOT NULL, `replies` integer NOT NULL DEFAULT (0));
-- Create index "comment_blog_id_parent_id_id" to table: "comments"
CREATE INDEX `comment_blog_id_parent_id_id` ON `comments` (`blog_id`, `parent_id`, `id`);
-- Create index "comment_parent_id_id" to table: "comments"
CREATE INDEX `comment_parent_id_id` ON `comments` (`parent_id`, `id`);
-- Create "order_id_nodes" table
CREATE TABLE `order_id_nodes` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `host` text NOT NULL DEFAULT (''));
-- Create "payments" table
CREATE TABLE `payments` (`id` integer NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `order_id` integer NOT NULL, `user_id` integer NOT NULL, `amount` integer NOT NULL, `status` text NOT NULL DEFAULT ('PENDING'), `provider` text NOT NULL DEFAULT (''), `provider_ref` text NOT NULL DEFAULT (''), `paid_at` datetime NULL, `refunded_at` datetime NULL, `refund_reason` text NOT NULL DEFAULT (''), PRIMARY KEY (`id`));
-- Create index "payment_order_id" to table: "payments"
CREATE INDEX `payment_order_id` ON `payments` (`order_id`);
-- Create index "payment_one_open_per_order" to table: "payments"
CREATE UNIQUE INDEX `payment_one_open_per_order` ON `payments` (`order_id`) WHERE status = 'PENDING';
-- Create index "payment_refunds_due" to table: "payments"
CREATE INDEX `payment_refunds_due` ON `payments` (`status`) WHERE status = 'REFUND_PENDING';
-- Create "sessions" table
CREATE TABLE `sessions` (`id` text NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `user_id` integer NOT NULL, `token_hash` text NOT NULL, `expires_at` datetime NOT NULL, `revoked_at` datetime NULL, PRIMARY KEY (`id`));
-- Create index "session_user_id" to table: "sessions"
CREATE INDEX `session_user_id` ON `sessions` (`user_id`);
-- Create index "session_expires_at" to table: "sessions"
CREATE INDEX `session_expires_at` ON `sessions` (`expires_at`);
-- Create "session_tokens" table
CREATE TABLE `session_tokens` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `session_id` text NOT NULL, `token_hash` text NOT NULL);
-- Create index "sessiontoken_session_id_token_hash" to table: "session_tokens"
CREATE UNIQUE INDEX `sessiontoken_session_id_token_hash` ON `session_tokens` (`session_id`, `token_hash`);
-- Create "sign_ins" table
CREATE TABLE `sign_ins` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `user_id` integer NOT NULL, `month` integer NOT NULL, `days` integer NOT NULL DEFAULT (0));
-- Create index "signin_user_id_month" to table: "sign_ins"
CREATE UNIQUE INDEX `signin_user_id_month` ON `sign_ins` (`user_id`, `month`);
-- Enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;
