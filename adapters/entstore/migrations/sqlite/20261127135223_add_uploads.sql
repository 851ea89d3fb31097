-- IF NOT EXISTS: applying the file again after its revision row was lost changes nothing.
-- Create "uploads" table
CREATE TABLE IF NOT EXISTS `uploads` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `user_id` integer NOT NULL, `url` text NOT NULL, `content_type` text NOT NULL, `width` integer NOT NULL, `height` integer NOT NULL);
-- Create index "uploads_url_key" to table: "uploads"
CREATE UNIQUE INDEX IF NOT EXISTS `uploads_url_key` ON `uploads` (`url`);
-- Create index "upload_user_id_id" to table: "uploads"
CREATE INDEX IF NOT EXISTS `upload_user_id_id` ON `uploads` (`user_id`, `id`);
