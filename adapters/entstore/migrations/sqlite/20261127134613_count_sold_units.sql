-- Orders used before units were counted were redeemed whole.
UPDATE voucher_orders SET redeemed_quantity = quantity WHERE status = 'USED';
-- A shop's sold counts the units of its PAID and USED orders from now on: add those
-- written before it did.
UPDATE shops SET sold = sold + (SELECT COALESCE(SUM(o.quantity), 0) FROM voucher_orders o JOIN vouchers v ON v.id = o.voucher_id
	WHERE v.shop_id = shops.id AND o.status IN ('PAID', 'USED'));
-- Refunds recorded before their amount was gave the whole payment back.
UPDATE payments SET refund_amount = amount WHERE status IN ('REFUND_PENDING', 'REFUNDED');
