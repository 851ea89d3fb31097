-- Registers one automatic persisted query in a store of bounded size: entries registered
-- more than a TTL ago go first (at most 100 a call), then the oldest until the store is
-- within its budget. Each entry counts its text and a fixed cost for its hash and index.
-- All times are milliseconds on the caller's clock.
--
-- KEYS[1] apq:{apq}:docs   hash: sha256 -> the query's text
-- KEYS[2] apq:{apq}:age    zset: sha256, score = when it was last registered
-- KEYS[3] apq:{apq}:bytes  string: what the entries count, in bytes
-- ARGV[1] sha256 of the query
-- ARGV[2] the query's text
-- ARGV[3] now
-- ARGV[4] ttl
-- ARGV[5] budget in bytes
-- ARGV[6] cost of an entry beside its text
-- Returns 1 stored; 0 already there (its age starts over); -1 larger than the budget.
local now, ttl = tonumber(ARGV[3]), tonumber(ARGV[4])
local budget, cost = tonumber(ARGV[5]), tonumber(ARGV[6])

-- Without its count (evicted, or the keys expired apart) the store cannot be measured:
-- it starts over.
if redis.call('EXISTS', KEYS[3]) == 0 then
  redis.call('DEL', KEYS[1], KEYS[2])
end

local function drop(h)
  local n = redis.call('HSTRLEN', KEYS[1], h)
  redis.call('HDEL', KEYS[1], h)
  redis.call('ZREM', KEYS[2], h)
  redis.call('DECRBY', KEYS[3], n + cost)
end

for _, h in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - ttl, 'LIMIT', 0, 100)) do
  drop(h)
end

local result
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  redis.call('ZADD', KEYS[2], now, ARGV[1])
  result = 0
elseif string.len(ARGV[2]) + cost > budget then
  result = -1
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  redis.call('ZADD', KEYS[2], now, ARGV[1])
  redis.call('INCRBY', KEYS[3], string.len(ARGV[2]) + cost)
  result = 1
  while tonumber(redis.call('GET', KEYS[3])) > budget do
    local oldest = redis.call('ZRANGE', KEYS[2], 0, 0)
    if #oldest == 0 then
      redis.call('SET', KEYS[3], 0)
      break
    end
    drop(oldest[1])
  end
end

-- The three keys live and go together: a store nobody registers in goes whole.
for i = 1, 3 do
  redis.call('PEXPIRE', KEYS[i], ttl)
end
return result
