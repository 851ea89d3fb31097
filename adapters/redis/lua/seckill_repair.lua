-- Repair a sale's stock and holders from the database's view: one atomic step, applied
-- only if no reservation of the sale was dropped, and the sale was not loaded or
-- repaired, since the caller read it.
--
-- KEYS[1] seckill:{s<k>}:stock:<vid>
-- KEYS[2] seckill:{s<k>}:users:<vid>
-- KEYS[3] seckill:{s<k>}:pending             hash: order id -> "<voucher id>:<user id>:<ms>"
-- KEYS[4] seckill:{s<k>}:reservations:<vid>  legacy hash: order id -> "<user id>:<ms>"
-- KEYS[5] seckill:{s<k>}:gen:<vid>           counter bumped by drop, load, repair
-- ARGV[1] the counter the caller read (its snapshot)
-- ARGV[2] units to add to the stock (negative: to take), never leaving it below 0
-- ARGV[3] voucher id
-- ARGV[4] n: the number of reservations to remove (their orders exist: settled, or
--         FAILED — their unit is accounted for in ARGV[2]), then ARGV[5 .. 4+n] their ids
-- ARGV[5+n] a: the number of users to add to the holders, then their ids
-- ARGV[6+n+a] r: the number of users to remove from the holders, then their ids
-- Returns 1 when applied, 0 when the counter moved or the sale is not loaded (the caller
-- reads again).
--
-- Reserve does not bump the counter: a reservation taken since the snapshot took its
-- unit from the stock this script adjusts by a difference, and added its user, whom no
-- removal names (a user in the snapshot's holders cannot reserve again). Nor does
-- settle: it removes the reservation of an order already written, changing neither
-- stock nor holders; the caller counted that reservation either as written (its order
-- in the database stock it read after) or as still waiting, which only holds a unit back.
if (redis.call('GET', KEYS[5]) or '0') ~= ARGV[1] or redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
local voucher = ARGV[3]
local n = tonumber(ARGV[4])
for i = 5, 4 + n do
  local r = redis.call('HGET', KEYS[3], ARGV[i])
  if r and string.sub(r, 1, #voucher + 1) == voucher .. ':' then
    redis.call('HDEL', KEYS[3], ARGV[i])
  else
    redis.call('HDEL', KEYS[4], ARGV[i])
  end
end
local delta = tonumber(ARGV[2])
if delta ~= 0 then
  if redis.call('INCRBY', KEYS[1], delta) < 0 then
    redis.call('SET', KEYS[1], 0)
  end
end
local at = 5 + n
local a = tonumber(ARGV[at])
for i = at + 1, at + a, 500 do
  redis.call('SADD', KEYS[2], unpack(ARGV, i, math.min(i + 499, at + a)))
end
at = at + a + 1
local r = tonumber(ARGV[at])
for i = at + 1, at + r, 500 do
  redis.call('SREM', KEYS[2], unpack(ARGV, i, math.min(i + 499, at + r)))
end
redis.call('INCR', KEYS[5])
return 1
