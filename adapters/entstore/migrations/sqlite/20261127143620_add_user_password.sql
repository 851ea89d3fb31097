-- Disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- Create "new_users" table
CREATE TABLE `new_users` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `phone` text NOT NULL, `nick_name` text NOT NULL DEFAULT (''), `icon` text NOT NULL DEFAULT (''), `role` text NOT NULL DEFAULT ('USER'), `blocked` bool NOT NULL DEFAULT (false), `city` text NOT NULL DEFAULT (''), `introduction` text NOT NULL DEFAULT (''), `gender` text NOT NULL DEFAULT ('UNKNOWN'), `birthday` datetime NULL, `credits` integer NOT NULL DEFAULT (0), `password_hash` text NOT NULL DEFAULT (''));
-- Copy rows from old table "users" to new temporary table "new_users"
INSERT INTO `new_users` (`id`, `created_at`, `updated_at`, `phone`, `nick_name`, `icon`, `role`, `blocked`, `city`, `introduction`, `gender`, `birthday`, `credits`) SELECT `id`, `created_at`, `updated_at`, `phone`, `nick_name`, `icon`, `role`, `blocked`, `city`, `introduction`, `gender`, `birthday`, `credits` FROM `users`;
-- Drop "users" table after copying rows
DROP TABLE `users`;
-- Rename temporary table "new_users" to "users"
ALTER TABLE `new_users` RENAME TO `users`;
-- Create index "users_phone_key" to table: "users"
CREATE UNIQUE INDEX `users_phone_key` ON `users` (`phone`);
-- Enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;
