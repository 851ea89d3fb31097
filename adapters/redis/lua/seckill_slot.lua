-- Take or free users' slots of a sale without moving a unit (a unit held for a user
-- outside the stock: the waitlist's): one atomic step.
--
-- KEYS[1] seckill:{s<k>}:stock:<vid>   (whether the sale is loaded)
-- KEYS[2] seckill:{s<k>}:users:<vid>
-- KEYS[3] seckill:{s<k>}:gen:<vid>     counter bumped by drop, load, repair, return, slots
-- ARGV[1] "take" or "free"
-- ARGV[2 ..] user ids (take: exactly one)
-- Returns, for take: 1 when the user is marked now, 0 when it was marked already, -1
-- when the sale is not loaded (nothing done); for free: the number of marks removed
-- (0 for a sale not loaded).
if redis.call('EXISTS', KEYS[1]) == 0 then
  if ARGV[1] == 'take' then
    return -1
  end
  return 0
end
local n = 0
if ARGV[1] == 'take' then
  n = redis.call('SADD', KEYS[2], ARGV[2])
else
  for i = 2, #ARGV do
    n = n + redis.call('SREM', KEYS[2], ARGV[i])
  end
end
if n > 0 then
  -- A repair computed from a snapshot before this change must not undo it.
  redis.call('INCR', KEYS[3])
end
return n
