-- Disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- Create "new_users" table
CREATE TABLE `new_users` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `phone` text NOT NULL, `nick_name` text NOT NULL DEFAULT (''), `icon` text NOT NULL DEFAULT (''), `role` text NOT NULL DEFAULT ('USER'), `blocked` bool NOT NULL DEFAULT (false), `city` text NOT NULL DEFAULT (''), `introduction` text NOT NULL DEFAULT (''), `gender` text NOT NULL DEFAULT ('UNKNOWN'), `birthday` datetime NULL, `credits` integer NOT NULL DEFAULT (0));
-- Copy rows from old table "users" to new temporary table "new_users"
INSERT INTO `new_users` (`id`, `created_at`, `updated_at`, `phone`, `nick_name`, `icon`, `role`, `blocked`, `city`, `introduction`, `gender`, `birthday`, `credits`) SELECT `id`, `created_at`, `updated_at`, `phone`, `nick_name`, `icon`, `role`, `blocked`, `city`, `introduction`, `gender`, `birthday`, `credits` FROM `users`;
-- Drop "users" table after copying rows
DROP TABLE `users`;
-- Rename temporary table "new_users" to "users"
ALTER TABLE `new_users` RENAME TO `users`;
-- Create index "users_phone_key" to table: "users"
CREATE UNIQUE INDEX `users_phone_key` ON `users` (`phone`);
-- Create "new_comments" table
CREATE TABLE `new_comments` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `blog_id` integer NOT NULL, `user_id` integer NOT NULL, `parent_id` integer NOT NULL DEFAULT (0), `reply_to_id` integer NOT NULL DEFAULT (0), `reply_to_user_id` integer NOT NULL DEFAULT (0), `content` text NOT NULL, `replies` integer NOT NULL DEFAULT (0));
-- Copy rows from old table "comments" to new temporary table "new_comments"
INSERT INTO `new_comments` (`id`, `created_at`, `updated_at`, `blog_id`, `user_id`, `parent_id`, `reply_to_user_id`, `content`, `replies`) SELECT `id`, `created_at`, `updated_at`, `blog_id`, `user_id`, `parent_id`, `reply_to_user_id`, `content`, `replies` FROM `comments`;
-- Drop "comments" table after copying rows
DROP TABLE `comments`;
-- Rename temporary table "new_comments" to "comments"
ALTER TABLE `new_comments` RENAME TO `comments`;
-- Create index "comment_blog_id_parent_id_id" to table: "comments"
CREATE INDEX `comment_blog_id_parent_id_id` ON `comments` (`blog_id`, `parent_id`, `id`);
-- Create index "comment_parent_id_id" to table: "comments"
CREATE INDEX `comment_parent_id_id` ON `comments` (`parent_id`, `id`);
-- Create "credit_awards" table
CREATE TABLE `credit_awards` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `user_id` integer NOT NULL, `reason` text NOT NULL, `ref` integer NOT NULL, `amount` integer NOT NULL, `created_at` datetime NOT NULL);
-- Create index "creditaward_user_id_reason_ref" to table: "credit_awards"
CREATE UNIQUE INDEX `creditaward_user_id_reason_ref` ON `credit_awards` (`user_id`, `reason`, `ref`);
-- Enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;
