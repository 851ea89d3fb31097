-- Count the distinct visitors over several days: merge the days' HyperLogLogs into a
-- scratch key, count it and delete it, all in one step. (PFCOUNT over several keys would
-- do the same on real Redis, but the embedded server adds the counts instead.)
--
-- KEYS[1]  scratch key, same hash tag as the days; deleted before returning
-- KEYS[2…] the days' HyperLogLogs (missing days count as empty)
-- Returns the estimated number of distinct visitors.
redis.call('PFMERGE', KEYS[1], unpack(KEYS, 2))
local n = redis.call('PFCOUNT', KEYS[1])
redis.call('DEL', KEYS[1])
return n
