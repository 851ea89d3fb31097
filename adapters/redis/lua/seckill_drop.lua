-- Drop a reservation and give back what the caller says: one atomic step, done at most
-- once per reservation.
--
-- KEYS[1] seckill:{s<k>}:stock:<vid>
-- KEYS[2] seckill:{s<k>}:users:<vid>
-- KEYS[3] seckill:{s<k>}:reservations:<vid>
-- KEYS[4] seckill:{s<k>}:pending             the shard's reservations by order id
-- ARGV[1] order id
-- ARGV[2] "1" to return the unit of stock
-- ARGV[3] "1" to return the user's slot
-- Returns 1 when the reservation was dropped, 0 when there was none.
local r = redis.call('HGET', KEYS[3], ARGV[1])
if not r then
  return 0
end
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('HDEL', KEYS[4], ARGV[1])
if ARGV[2] == '1' and redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('INCR', KEYS[1])
end
if ARGV[3] == '1' then
  local user = string.match(r, '^([^:]+):')
  if user then
    redis.call('SREM', KEYS[2], user)
  end
end
return 1
