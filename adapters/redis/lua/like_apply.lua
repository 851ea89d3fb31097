-- Apply one like or unlike to a blog's cached likers, in the order the database made
-- them: only when the cache holds the version just before it.
--
-- KEYS[1] blog:liked:{<blogId>}    zset: member user id, score = like time (ms)
-- KEYS[2] blog:liked:{<blogId>}:v  string: version of the blog's likes the zset holds;
--                                  missing = the blog is not cached
-- ARGV[1] user id
-- ARGV[2] 1 for a like, 0 for an unlike
-- ARGV[3] like time, milliseconds (the score of a like)
-- ARGV[4] the change's version
-- Returns 1 when the cache holds the change now (applied, or a load already brought it),
-- 0 when it cannot: not cached, or a change in between is missing.
local cur = redis.call('GET', KEYS[2])
if not cur then
  return 0
end
local have, v = tonumber(cur), tonumber(ARGV[4])
if have >= v then
  return 1
end
if have ~= v - 1 then
  return 0
end
if ARGV[2] == '1' then
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
else
  redis.call('ZREM', KEYS[1], ARGV[1])
end
-- Set from the argument string: Lua would print a large number in exponent form.
redis.call('SET', KEYS[2], ARGV[4])
return 1
