-- Cache a blog's likes as the database holds them at one version, unless the cache holds
-- that version or a newer one (a slow load must not undo later changes).
--
-- KEYS[1] blog:liked:{<blogId>}    zset: member user id, score = like time (ms)
-- KEYS[2] blog:liked:{<blogId>}:v  string: version of the blog's likes the zset holds
-- ARGV[1] the version
-- ARGV[2..] score, member, score, member, …
-- Returns 1 when cached, 0 when the cache was as new already.
local cur = redis.call('GET', KEYS[2])
if cur and tonumber(cur) >= tonumber(ARGV[1]) then
  return 0
end
redis.call('DEL', KEYS[1])
local batch = 500
for i = 2, #ARGV, 2 * batch do
  local args = {}
  for j = i, math.min(i + 2 * batch - 1, #ARGV) do
    args[#args + 1] = ARGV[j]
  end
  redis.call('ZADD', KEYS[1], unpack(args))
end
redis.call('SET', KEYS[2], ARGV[1])
return 1
