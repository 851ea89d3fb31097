-- Add column "announced_at" to table: "waitlist_units"
ALTER TABLE `waitlist_units` ADD COLUMN `announced_at` datetime NULL;
-- Create index "waitlistunit_unannounced" to table: "waitlist_units"
CREATE INDEX `waitlistunit_unannounced` ON `waitlist_units` (`offered_at`) WHERE status = 'HELD' AND announced_at IS NULL;
