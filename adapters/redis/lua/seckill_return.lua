-- Give the units of canceled or refunded orders back to their sale: one atomic step, at
-- most once per order id however often it is called.
--
-- KEYS[1] seckill:{s<k>}:stock:<vid>
-- KEYS[2] seckill:{s<k>}:users:<vid>
-- KEYS[3] seckill:{s<k>}:returned:<vid>      set: order ids whose unit came back
-- KEYS[4] seckill:{s<k>}:gen:<vid>           counter bumped by drop, load, repair, return
-- ARGV[1] "1" to let each order's user claim the sale again
-- ARGV[2 ..] pairs: order id, user id
-- Returns the number of units returned now. A sale not loaded is left alone (it is
-- loaded from the database, which already has the units) and returns 0.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
local n = 0
for i = 2, #ARGV, 2 do
  if redis.call('SADD', KEYS[3], ARGV[i]) == 1 then
    n = n + 1
    if ARGV[1] == '1' then
      redis.call('SREM', KEYS[2], ARGV[i + 1])
    end
  end
end
if n > 0 then
  redis.call('INCRBY', KEYS[1], n)
  redis.call('INCR', KEYS[4])
end
return n
