-- Replaces the current refresh token of a family; a spent token revokes the family.
-- All times are milliseconds on the caller's clock; key expiries only collect garbage.
--
-- KEYS[1] session:{u<user>}:families           zset: family id, score = family expiry
-- KEYS[2] session:{u<user>}:family:<id>        hash: cur = current token hash, exp = expiry
-- KEYS[3] session:{u<user>}:family:<id>:used   set: hashes of rotated (spent) tokens
-- ARGV[1] now
-- ARGV[2] family id
-- ARGV[3] hash of the presented token
-- ARGV[4] hash of the token replacing it
-- ARGV[5] token TTL
-- Returns  1 rotated;
--          0 unknown: no such live family, an expired token, or a hash never issued;
--         -1 reused: the token was already rotated, the family is now revoked.
local now = tonumber(ARGV[1])
local ttl = tonumber(ARGV[5])

local fam = redis.call('HMGET', KEYS[2], 'cur', 'exp')
if not fam[1] then
  return 0
end
if fam[1] == ARGV[3] then
  if not fam[2] or tonumber(fam[2]) <= now then
    return 0
  end
  redis.call('SADD', KEYS[3], ARGV[3])
  redis.call('HSET', KEYS[2], 'cur', ARGV[4], 'exp', now + ttl)
  redis.call('PEXPIRE', KEYS[2], ttl)
  redis.call('PEXPIRE', KEYS[3], ttl)
  redis.call('ZADD', KEYS[1], now + ttl, ARGV[2])
  if redis.call('PTTL', KEYS[1]) < ttl then
    redis.call('PEXPIRE', KEYS[1], ttl)
  end
  return 1
end
if redis.call('SISMEMBER', KEYS[3], ARGV[3]) == 1 then
  redis.call('DEL', KEYS[2], KEYS[3])
  redis.call('ZREM', KEYS[1], ARGV[2])
  return -1
end
return 0
