-- Create "waitlist_entries" table
CREATE TABLE `waitlist_entries` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `voucher_id` integer NOT NULL, `user_id` integer NOT NULL, `status` text NOT NULL DEFAULT ('WAITING'));
-- Create index "waitlistentry_one_live_place" to table: "waitlist_entries"
CREATE UNIQUE INDEX `waitlistentry_one_live_place` ON `waitlist_entries` (`voucher_id`, `user_id`) WHERE status IN ('WAITING', 'OFFERED');
-- Create index "waitlistentry_voucher_id_status_id" to table: "waitlist_entries"
CREATE INDEX `waitlistentry_voucher_id_status_id` ON `waitlist_entries` (`voucher_id`, `status`, `id`);
-- Create index "waitlistentry_user_id_id" to table: "waitlist_entries"
CREATE INDEX `waitlistentry_user_id_id` ON `waitlist_entries` (`user_id`, `id`);
-- Create "waitlist_units" table
CREATE TABLE `waitlist_units` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `voucher_id` integer NOT NULL, `source_order_id` integer NOT NULL, `source_user_id` integer NOT NULL, `status` text NOT NULL DEFAULT ('HELD'), `user_id` integer NOT NULL DEFAULT (0), `entry_id` integer NOT NULL DEFAULT (0), `offered_at` datetime NOT NULL, `expires_at` datetime NOT NULL, `order_id` integer NOT NULL DEFAULT (0));
-- Create index "waitlist_units_source_order_id_key" to table: "waitlist_units"
CREATE UNIQUE INDEX `waitlist_units_source_order_id_key` ON `waitlist_units` (`source_order_id`);
-- Create index "waitlistunit_held_by_deadline" to table: "waitlist_units"
CREATE INDEX `waitlistunit_held_by_deadline` ON `waitlist_units` (`expires_at`) WHERE status = 'HELD';
-- Create index "waitlistunit_voucher_id_user_id" to table: "waitlist_units"
CREATE INDEX `waitlistunit_voucher_id_user_id` ON `waitlist_units` (`voucher_id`, `user_id`);
