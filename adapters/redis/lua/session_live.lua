-- Caches a session (refresh-token family) as live, unless it is cached as ended: an end
-- written meanwhile wins over a rebuild from an older read of the database.
--
-- KEYS[1] session:{u<user>}:f:<family>   "1" live, "0" ended
-- ARGV[1] TTL in milliseconds
-- Returns 1 when cached, 0 when the family is cached as ended.
if redis.call('GET', KEYS[1]) == '0' then
  return 0
end
redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
return 1
