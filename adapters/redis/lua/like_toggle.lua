-- Like a blog for a user, or take the like back when the user already likes it, and
-- number the change. One script, so concurrent toggles (a double click) alternate and
-- the set never counts a user twice.
--
-- KEYS[1] blog:liked:{<blogId>}      zset: member user id, score = like time (ms)
-- KEYS[2] blog:liked:{<blogId>}:seq  string: number of the blog's latest change
-- ARGV[1] user id
-- ARGV[2] now, milliseconds (the score of a new like)
-- ARGV[3] lowest number this change may take: the caller's clock in microseconds, so
--         numbers keep growing past those stored in the database even after Redis lost
--         KEYS[2]
-- Returns {liked, count, seq}: liked 1 when the user now likes the blog, 0 when the like
-- was taken back; count = likers now; seq = this change's number.
local liked = 1
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  redis.call('ZREM', KEYS[1], ARGV[1])
  liked = 0
else
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
end

local seq = redis.call('INCR', KEYS[2])
if seq < tonumber(ARGV[3]) then
  -- Set from the argument string: Lua would print a number this large in exponent form.
  redis.call('SET', KEYS[2], ARGV[3])
  seq = tonumber(ARGV[3])
end
return {liked, redis.call('ZCARD', KEYS[1]), seq}
