-- Starts a refresh-token family (one login session) of a user.
-- All times are milliseconds on the caller's clock; key expiries only collect garbage.
--
-- KEYS[1] session:{u<user>}:families           zset: family id, score = family expiry
-- KEYS[2] session:{u<user>}:family:<id>        hash: cur = current token hash, exp = expiry
-- KEYS[3] session:{u<user>}:family:<id>:used   set: hashes of rotated (spent) tokens
-- ARGV[1] now
-- ARGV[2] family id
-- ARGV[3] hash of the family's first token
-- ARGV[4] token TTL
-- Returns 1.
local now = tonumber(ARGV[1])
local ttl = tonumber(ARGV[4])

redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZADD', KEYS[1], now + ttl, ARGV[2])
if redis.call('PTTL', KEYS[1]) < ttl then
  redis.call('PEXPIRE', KEYS[1], ttl)
end
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('HSET', KEYS[2], 'cur', ARGV[3], 'exp', now + ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
return 1
