-- Checks a login code of one (phone, client) pair, for a guess from that client: a right
-- code is consumed, a wrong guess counts against the code it was meant for, and the code
-- is discarded at its last allowed wrong guess. Other clients' guesses never reach it.
-- With no live code nothing is counted: guessing cannot lock a phone out.
-- All times are milliseconds on the caller's clock; key expiries only collect garbage.
--
-- KEYS[1] login:{<phone>}:code:<client>  hash: d = code digest, exp = expiry time, w = wrong guesses
-- ARGV[1] now
-- ARGV[2] digest of the presented code
-- ARGV[3] wrong guesses that discard the code
-- Returns {1, 0} accepted: the code is deleted;
--         {0, n} rejected: a wrong guess counted against the code, which survives n more;
--         {0, 0} rejected: no live code;
--         {3, 0} discarded: a wrong guess that was the code's last; the code is deleted.
local now = tonumber(ARGV[1])
local max = tonumber(ARGV[3])

local code = redis.call('HMGET', KEYS[1], 'd', 'exp')
if not code[1] or not code[2] or tonumber(code[2]) <= now then
  return {0, 0}
end
if code[1] == ARGV[2] then
  redis.call('DEL', KEYS[1])
  return {1, 0}
end
local wrong = redis.call('HINCRBY', KEYS[1], 'w', 1)
if wrong >= max then
  redis.call('DEL', KEYS[1])
  return {3, 0}
end
return {0, max - wrong}
