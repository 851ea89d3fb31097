-- Revokes refresh-token families of one user.
--
-- KEYS[1]            session:{u<user>}:families           zset: family id, score = expiry
-- KEYS[2i], KEYS[2i+1] (i = 1..n)
--                    session:{u<user>}:family:<ARGV[i]> and session:{u<user>}:family:<ARGV[i]>:used
-- ARGV[1..n]         the family ids
-- Returns the number of families the user has left.
for i = 1, #ARGV do
  redis.call('DEL', KEYS[2 * i], KEYS[2 * i + 1])
  redis.call('ZREM', KEYS[1], ARGV[i])
end
return redis.call('ZCARD', KEYS[1])
