-- Create "blogs" table
CREATE TABLE `blogs` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `shop_id` integer NOT NULL, `user_id` integer NOT NULL, `title` text NOT NULL, `images` text NOT NULL DEFAULT (''), `content` text NOT NULL DEFAULT (''), `liked` integer NOT NULL DEFAULT (0), `comments` integer NOT NULL DEFAULT (0));
-- Create index "blog_user_id_id" to table: "blogs"
CREATE INDEX `blog_user_id_id` ON `blogs` (`user_id`, `id`);
-- Create index "blog_liked_id" to table: "blogs"
CREATE INDEX `blog_liked_id` ON `blogs` (`liked`, `id`);
-- Create "flash_sales" table
CREATE TABLE `flash_sales` (`id` integer NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `stock` integer NOT NULL, `begin_time` datetime NOT NULL, `end_time` datetime NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `flash_sales_vouchers_flash_sale` FOREIGN KEY (`id`) REFERENCES `vouchers` (`id`) ON DELETE NO ACTION);
-- Create "follows" table
CREATE TABLE `follows` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `user_id` integer NOT NULL, `follow_user_id` integer NOT NULL);
-- Create index "follow_user_id_follow_user_id" to table: "follows"
CREATE UNIQUE INDEX `follow_user_id_follow_user_id` ON `follows` (`user_id`, `follow_user_id`);
-- Create index "follow_follow_user_id" to table: "follows"
CREATE INDEX `follow_follow_user_id` ON `follows` (`follow_user_id`);
-- Create "shops" table
CREATE TABLE `shops` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `name` text NOT NULL, `images` text NOT NULL DEFAULT (''), `area` text NOT NULL DEFAULT (''), `address` text NOT NULL DEFAULT (''), `longitude` real NOT NULL, `latitude` real NOT NULL, `avg_price` integer NOT NULL DEFAULT (0), `sold` integer NOT NULL DEFAULT (0), `comments` integer NOT NULL DEFAULT (0), `score` integer NOT NULL DEFAULT (0), `open_hours` text NOT NULL DEFAULT (''), `type_id` integer NOT NULL, CONSTRAINT `shops_shop_types_shops` FOREIGN KEY (`type_id`) REFERENCES `shop_types` (`id`) ON DELETE NO ACTION);
-- Create index "shop_type_id" to table: "shops"
CREATE INDEX `shop_type_id` ON `shops` (`type_id`);
-- Create index "shop_type_id_id" to table: "shops"
CREATE INDEX `shop_type_id_id` ON `shops` (`type_id`, `id`);
-- Create index "shop_name" to table: "shops"
CREATE INDEX `shop_name` ON `shops` (`name`);
-- Create "shop_types" table
CREATE TABLE `shop_types` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `name` text NOT NULL, `icon` text NOT NULL DEFAULT (''), `sort` integer NOT NULL DEFAULT (0));
-- Create "users" table
CREATE TABLE `users` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `phone` text NOT NULL, `nick_name` text NOT NULL DEFAULT (''), `icon` text NOT NULL DEFAULT (''), `role` text NOT NULL DEFAULT ('USER'), `blocked` bool NOT NULL DEFAULT (false));
-- Create index "users_phone_key" to table: "users"
CREATE UNIQUE INDEX `users_phone_key` ON `users` (`phone`);
-- Create "vouchers" table
CREATE TABLE `vouchers` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `title` text NOT NULL, `sub_title` text NOT NULL DEFAULT (''), `rules` text NOT NULL DEFAULT (''), `pay_value` integer NOT NULL, `actual_value` integer NOT NULL, `kind` text NOT NULL DEFAULT ('NORMAL'), `status` text NOT NULL DEFAULT ('ON_SALE'), `shop_id` integer NOT NULL, CONSTRAINT `vouchers_shops_vouchers` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE NO ACTION);
-- Create index "voucher_shop_id" to table: "vouchers"
CREATE INDEX `voucher_shop_id` ON `vouchers` (`shop_id`);
-- Create "voucher_orders" table
CREATE TABLE `voucher_orders` (`id` integer NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `user_id` integer NOT NULL, `voucher_id` integer NOT NULL, `status` text NOT NULL DEFAULT ('CREATED'), `pay_time` datetime NULL, `use_time` datetime NULL, `refund_time` datetime NULL, PRIMARY KEY (`id`));
-- Create index "voucherorder_user_id_voucher_id" to table: "voucher_orders"
CREATE UNIQUE INDEX `voucherorder_user_id_voucher_id` ON `voucher_orders` (`user_id`, `voucher_id`);
-- Create index "voucherorder_user_id_id" to table: "voucher_orders"
CREATE INDEX `voucherorder_user_id_id` ON `voucher_orders` (`user_id`, `id`);
-- Create index "voucherorder_voucher_id" to table: "voucher_orders"
CREATE INDEX `voucherorder_voucher_id` ON `voucher_orders` (`voucher_id`);
