-- Take units out of one bucket of a sale split into buckets, for another bucket that ran
-- dry: the first half of a transfer (seckill_give.lua is the second). Every key shares
-- the bucket's shard hash tag.
--
-- A sale of B buckets keeps its stock in B parts on B shards; a user always claims in
-- the same bucket, so one order per user is one SISMEMBER (I2). Units leave the donor
-- here before they reach the dry bucket, so the units in Redis never exceed the sale's
-- (I1). Each bucket counts what it gave (out) and received (in): stock + out - in of a
-- bucket changes only by its own claims, drops, returns and repairs, never by a
-- transfer, so the sum over the buckets, read one bucket at a time, is the sale's stock
-- including the units in flight between two buckets.
--
-- KEYS[1] seckill:{s<k>}:stock:<vid>[.<b>]   the donor's units left
-- KEYS[2] seckill:{s<k>}:bucket:<vid>.<b>    hash: out, in, epoch
-- KEYS[3] seckill:{s<k>}:xfer:<vid>.<b>      hash: transfer id -> "<to>:<units>:<ms>:<epoch>"
-- ARGV[1] transfer id (unique per transfer)
-- ARGV[2] the bucket the units go to
-- ARGV[3] now (unix ms)
-- Returns {units taken, epoch}: units -1 when the bucket is not loaded; a transfer id
-- seen before answers its first run's units again without taking more.
local epoch = redis.call('HGET', KEYS[2], 'epoch') or ''
local stock = redis.call('GET', KEYS[1])
if not stock then
  return {-1, epoch}
end
local prev = redis.call('HGET', KEYS[3], ARGV[1])
if prev then
  return {tonumber(string.match(prev, '^[^:]+:([^:]+):')), epoch}
end
stock = tonumber(stock)
if stock <= 0 then
  return {0, epoch}
end
local k = math.ceil(stock / 2) -- half, rounded up: the donor's own users keep the rest
redis.call('DECRBY', KEYS[1], k)
redis.call('HINCRBY', KEYS[2], 'out', k)
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2] .. ':' .. k .. ':' .. ARGV[3] .. ':' .. epoch)
return {k, epoch}
