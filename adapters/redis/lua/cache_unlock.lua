-- Releases a cache rebuild lock if the caller still owns it (compare-and-delete), so a
-- holder whose lock expired never releases the next holder's.
--
-- KEYS[1] lock:<cache>:<id>  string: the owner's token
-- ARGV[1] the caller's token
-- Returns 1 released; 0 not released (expired, or owned by someone else).
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
