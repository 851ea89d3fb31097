-- Give a transfer's units to a bucket of a sale split into buckets: the second half of
-- seckill_take.lua, or, when the receiving bucket refused them, their way back to the
-- donor. At most once per transfer id and bucket, however often it is called.
--
-- KEYS[1] seckill:{s<k>}:stock:<vid>[.<b>]   the receiver's units left
-- KEYS[2] seckill:{s<k>}:bucket:<vid>.<b>    hash: out, in, epoch
-- KEYS[3] seckill:{s<k>}:given:<vid>.<b>     set: transfers received
-- ARGV[1] transfer id
-- ARGV[2] units
-- ARGV[3] the epoch the units were taken in
-- Returns 1 when given now, 0 when given before, -1 when refused: the bucket is not
-- loaded, or was loaded again since the units were taken (its stock was computed
-- afresh, and adding units taken before would count them twice).
if redis.call('SISMEMBER', KEYS[3], ARGV[1]) == 1 then
  return 0
end
if redis.call('EXISTS', KEYS[1]) == 0 or (redis.call('HGET', KEYS[2], 'epoch') or '') ~= ARGV[3] then
  return -1
end
redis.call('INCRBY', KEYS[1], ARGV[2])
redis.call('HINCRBY', KEYS[2], 'in', ARGV[2])
redis.call('SADD', KEYS[3], ARGV[1])
return 1
