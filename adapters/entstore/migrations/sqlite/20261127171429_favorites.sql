-- Create "favorites" table
CREATE TABLE `favorites` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `user_id` integer NOT NULL, `kind` text NOT NULL, `target_id` integer NOT NULL, `created_at` datetime NOT NULL);
-- Create index "favorite_user_id_kind_target_id" to table: "favorites"
CREATE UNIQUE INDEX `favorite_user_id_kind_target_id` ON `favorites` (`user_id`, `kind`, `target_id`);
-- Create index "favorite_user_id_id" to table: "favorites"
CREATE INDEX `favorite_user_id_id` ON `favorites` (`user_id`, `id`);
-- Create index "favorite_kind_target_id_user_id" to table: "favorites"
CREATE INDEX `favorite_kind_target_id_user_id` ON `favorites` (`kind`, `target_id`, `user_id`);
