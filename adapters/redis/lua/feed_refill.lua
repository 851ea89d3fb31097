-- Refills one feed inbox from the database's view and marks it filled — unless the mark
-- this refill set when it began is gone (Redis lost its data while the refill read the
-- database, so what it read may miss notes pushed into the lost inbox) or was taken by
-- a later refill. The entries are added either way: adding is a union.
--
-- KEYS[1] feed:<userId>            ZSET: blog ids (19 digits) scored by publication ms
-- KEYS[2] {feed:<userId>}:filled   string: "filled", or the token of a refill under way
-- ARGV[1] the token BeginRefill set
-- ARGV[2] how many entries the inbox keeps (the newest)
-- ARGV[3..] score, member pairs
-- Returns 1 marked filled; 0 not marked (the next read refills again).
for i = 3, #ARGV, 1000 do
  local args = {}
  for j = i, math.min(i + 999, #ARGV) do
    args[#args + 1] = ARGV[j]
  end
  redis.call('ZADD', KEYS[1], unpack(args))
end
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -tonumber(ARGV[2]) - 1)
if redis.call('GET', KEYS[2]) ~= ARGV[1] then
  return 0
end
redis.call('SET', KEYS[2], 'filled')
return 1
