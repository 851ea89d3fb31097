-- Load a sale's state into Redis (preload at creation, rebuild after Redis lost it).
--
-- KEYS[1] seckill:{s<k>}:stock:<vid>
-- KEYS[2] seckill:{s<k>}:users:<vid>
-- KEYS[3] seckill:{s<k>}:window:<vid>
-- KEYS[4] seckill:{s<k>}:gen:<vid>          counter of drops, loads and repairs
-- For one bucket of a sale split into buckets (see seckill_take.lua), also:
-- KEYS[5] seckill:{s<k>}:bucket:<vid>.<b>    hash: out, in (units moved), epoch
-- KEYS[6] seckill:{s<k>}:xfer:<vid>.<b>      hash: transfers out of the bucket not known done
-- KEYS[7] seckill:{s<k>}:given:<vid>.<b>     set: transfers received
-- ARGV[1] stock
-- ARGV[2] begin (unix ms)
-- ARGV[3] end (unix ms)
-- ARGV[4] "1" to replace a loaded sale, "0" to leave it as it is
-- ARGV[5] the load's epoch, shared by every bucket of one load (with KEYS[5..7]; else "")
-- ARGV[6..] users already holding an order
-- Returns 1 when loaded, 0 when the sale was already loaded and left alone. Loading a
-- bucket starts its transfer counters and records afresh: a transfer of an earlier
-- epoch is refused by seckill_give.lua.
if ARGV[4] ~= '1' and redis.call('EXISTS', KEYS[1]) == 1 and redis.call('EXISTS', KEYS[3]) == 1 then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[3])
redis.call('HSET', KEYS[3], 'begin', ARGV[2], 'end', ARGV[3])
redis.call('DEL', KEYS[2])
for i = 6, #ARGV, 500 do
  redis.call('SADD', KEYS[2], unpack(ARGV, i, math.min(i + 499, #ARGV)))
end
if KEYS[5] then
  redis.call('DEL', KEYS[5], KEYS[6], KEYS[7])
  redis.call('HSET', KEYS[5], 'out', 0, 'in', 0, 'epoch', ARGV[5])
end
redis.call('INCR', KEYS[4])
return 1
