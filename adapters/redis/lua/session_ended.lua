-- Caches sessions (refresh-token families) of one user as ended.
--
-- KEYS[1..n] session:{u<user>}:f:<family>   "1" live, "0" ended
-- ARGV[1]    TTL in milliseconds
-- Returns n.
for i = 1, #KEYS do
  redis.call('SET', KEYS[i], '0', 'PX', ARGV[1])
end
return #KEYS
