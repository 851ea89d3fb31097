-- Issues a login code to one phone for one client (an IP address or network) if the
-- send limits of that (phone, client) pair allow it; other clients' sends never count.
-- All times are milliseconds on the caller's clock; key expiries only collect garbage.
--
-- KEYS[1] login:{<phone>}:code:<client>      hash: d = code digest, exp = expiry time, w = wrong guesses
-- KEYS[2] login:{<phone>}:sends:<client>     zset: one member per code sent, score = send time
-- KEYS[3] login:{<phone>}:sendlock:<client>  string: end of the send lock
-- ARGV[1] now
-- ARGV[2] code digest
-- ARGV[3] code TTL
-- ARGV[4] least interval between two codes
-- ARGV[5] sliding window (a send exactly one window old still counts)
-- ARGV[6] most codes per window
-- ARGV[7] lock imposed on asking beyond the window's maximum
-- ARGV[8] unique id of this send
-- ARGV[9] sliding day (a send exactly one day old no longer counts)
-- ARGV[10] most codes per day
-- Returns {1, 0} when the code was stored and the send recorded;
--         {0, retry-after} when refused (nothing stored).
-- Tiers, in order: the lock, the interval, the day (refuses without locking), the window
-- (asking beyond it locks).
local now = tonumber(ARGV[1])
local ttl = tonumber(ARGV[3])
local interval = tonumber(ARGV[4])
local window = tonumber(ARGV[5])
local max = tonumber(ARGV[6])
local lock = tonumber(ARGV[7])
local day = tonumber(ARGV[9])
local day_max = tonumber(ARGV[10])

local locked_until = tonumber(redis.call('GET', KEYS[3]) or '0')
if locked_until > now then
  return {0, locked_until - now}
end

local keep = math.max(window, interval, day)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. (now - keep))

local last = redis.call('ZREVRANGE', KEYS[2], 0, 0, 'WITHSCORES')
if #last == 2 then
  local wait = tonumber(last[2]) + interval - now
  if wait > 0 then
    return {0, wait}
  end
end

local today = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. (now - day), '+inf', 'WITHSCORES')
local n = #today / 2
if n >= day_max then
  -- The next code fits once enough of the day's codes are a day old.
  local oldest = tonumber(today[2 * (n - day_max) + 2])
  return {0, oldest + day - now}
end

if redis.call('ZCOUNT', KEYS[2], now - window, '+inf') >= max then
  redis.call('SET', KEYS[3], now + lock, 'PX', lock)
  return {0, lock}
end

redis.call('ZADD', KEYS[2], now, ARGV[8])
redis.call('PEXPIRE', KEYS[2], keep)
-- A new code starts with no wrong guesses.
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'd', ARGV[2], 'exp', now + ttl)
redis.call('PEXPIRE', KEYS[1], ttl)
return {1, 0}
