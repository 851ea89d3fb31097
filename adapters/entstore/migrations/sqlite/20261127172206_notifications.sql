-- Create "notifications" table
CREATE TABLE `notifications` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `user_id` integer NOT NULL, `kind` text NOT NULL, `group_key` text NOT NULL, `actor_id` integer NOT NULL DEFAULT (0), `actor_count` integer NOT NULL DEFAULT (0), `blog_id` integer NOT NULL DEFAULT (0), `comment_id` integer NOT NULL DEFAULT (0), `order_id` integer NOT NULL DEFAULT (0), `seq` integer NOT NULL, `read_at` datetime NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL);
-- Create index "notification_user_id_seq" to table: "notifications"
CREATE UNIQUE INDEX `notification_user_id_seq` ON `notifications` (`user_id`, `seq`);
-- Create index "notification_user_id_group_key" to table: "notifications"
CREATE UNIQUE INDEX `notification_user_id_group_key` ON `notifications` (`user_id`, `group_key`) WHERE read_at IS NULL;
-- Create "notification_actors" table
CREATE TABLE `notification_actors` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `notification_id` integer NOT NULL, `user_id` integer NOT NULL);
-- Create index "notificationactor_notification_id_user_id" to table: "notification_actors"
CREATE UNIQUE INDEX `notificationactor_notification_id_user_id` ON `notification_actors` (`notification_id`, `user_id`);
-- Create "notification_settings" table
CREATE TABLE `notification_settings` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `user_id` integer NOT NULL, `likes` bool NOT NULL DEFAULT (true), `comments` bool NOT NULL DEFAULT (true), `follows` bool NOT NULL DEFAULT (true), `orders` bool NOT NULL DEFAULT (true), `followed_notes` bool NOT NULL DEFAULT (false));
-- Create index "notificationsetting_user_id" to table: "notification_settings"
CREATE UNIQUE INDEX `notificationsetting_user_id` ON `notification_settings` (`user_id`);
