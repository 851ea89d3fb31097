-- Drop a reservation and give back what the caller says: one atomic step, done at most
-- once per reservation.
--
-- KEYS[1] seckill:{s<k>}:stock:<vid>
-- KEYS[2] seckill:{s<k>}:users:<vid>
-- KEYS[3] seckill:{s<k>}:pending             hash: order id -> "<voucher id>:<user id>:<ms>"
-- KEYS[4] seckill:{s<k>}:reservations:<vid>  hash: order id -> "<user id>:<ms>", where
--                                            reservations were kept before the shard hash
-- KEYS[5] seckill:{s<k>}:gen:<vid>           counter of drops, loads and repairs
-- ARGV[1] order id
-- ARGV[2] "1" to return the unit of stock
-- ARGV[3] "1" to return the user's slot
-- ARGV[4] voucher id
-- Returns 1 when the reservation was dropped, 0 when there was none (for this voucher).
local user
local r = redis.call('HGET', KEYS[3], ARGV[1])
if r then
  local voucher
  voucher, user = string.match(r, '^([^:]+):([^:]+):')
  if voucher ~= ARGV[4] then
    return 0
  end
  redis.call('HDEL', KEYS[3], ARGV[1])
else
  r = redis.call('HGET', KEYS[4], ARGV[1])
  if not r then
    return 0
  end
  user = string.match(r, '^([^:]+):')
  redis.call('HDEL', KEYS[4], ARGV[1])
end
if ARGV[2] == '1' and redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('INCR', KEYS[1])
end
if ARGV[3] == '1' and user then
  redis.call('SREM', KEYS[2], user)
end
redis.call('INCR', KEYS[5])
return 1
