-- Sliding-window rate limit for one key.
-- All times are milliseconds on the caller's clock; the key's expiry only collects garbage.
--
-- KEYS[1] ratelimit:{<key>}  zset: one member per allowed event, score = its time
-- ARGV[1] now
-- ARGV[2] window
-- ARGV[3] most events per window
-- ARGV[4] unique id of this event
-- Returns {1, 0, left} allowed (the event is recorded; left more fit in the window now);
--         {0, retry-after, 0} refused (nothing recorded).
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])

redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local n = redis.call('ZCARD', KEYS[1])
if n < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], window)
  return {1, 0, limit - n - 1}
end

-- The next event fits once enough of the oldest ones have left the window.
local oldest = redis.call('ZRANGE', KEYS[1], n - limit, n - limit, 'WITHSCORES')
local wait = tonumber(oldest[2]) + window - now
if wait < 1 then
  wait = 1
end
return {0, wait, 0}
