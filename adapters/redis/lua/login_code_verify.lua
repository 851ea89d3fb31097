-- Checks a login code for one phone, counting wrong attempts and consuming a right code.
-- All times are milliseconds on the caller's clock; key expiries only collect garbage.
--
-- KEYS[1] login:{<phone>}:code       hash: d = code digest, exp = expiry time
-- KEYS[2] login:{<phone>}:fails      zset: one member per wrong attempt, score = its time
-- KEYS[3] login:{<phone>}:loginlock  string: end of the login lock
-- ARGV[1] now
-- ARGV[2] digest of the presented code
-- ARGV[3] wrong attempts that lock the phone
-- ARGV[4] sliding window the wrong attempts are counted in
-- ARGV[5] lock duration
-- ARGV[6] unique id of this attempt
-- Returns {1, 0}  accepted: the code is deleted, wrong attempts are forgotten;
--         {0, 0}  rejected: wrong, expired or no code; the attempt is counted;
--         {2, retry-after} locked (already, or by this attempt, which also discards the code).
local now = tonumber(ARGV[1])
local max = tonumber(ARGV[3])
local window = tonumber(ARGV[4])
local lock = tonumber(ARGV[5])

local locked_until = tonumber(redis.call('GET', KEYS[3]) or '0')
if locked_until > now then
  return {2, locked_until - now}
end

local code = redis.call('HMGET', KEYS[1], 'd', 'exp')
if code[1] and code[2] and tonumber(code[2]) > now and code[1] == ARGV[2] then
  redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
  return {1, 0}
end

redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - window)
redis.call('ZADD', KEYS[2], now, ARGV[6])
if redis.call('ZCARD', KEYS[2]) >= max then
  redis.call('SET', KEYS[3], now + lock, 'PX', lock)
  redis.call('DEL', KEYS[1], KEYS[2])
  return {2, lock}
end
redis.call('PEXPIRE', KEYS[2], window)
return {0, 0}
