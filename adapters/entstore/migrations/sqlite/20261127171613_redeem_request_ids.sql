-- Create "redeem_requests" table
CREATE TABLE `redeem_requests` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `order_id` integer NOT NULL, `request_id` text NOT NULL, `units` integer NOT NULL, `created_at` datetime NOT NULL);
-- Create index "redeemrequest_order_id_request_id" to table: "redeem_requests"
CREATE UNIQUE INDEX `redeemrequest_order_id_request_id` ON `redeem_requests` (`order_id`, `request_id`);
