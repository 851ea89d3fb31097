-- Reserve one unit of a flash sale for a user: one atomic step.
-- Every key shares the sale's shard hash tag {s<k>}, so the script runs on Redis Cluster.
--
-- KEYS[1] seckill:{s<k>}:stock:<vid>         string: units left
-- KEYS[2] seckill:{s<k>}:users:<vid>         set: users holding an order
-- KEYS[3] seckill:{s<k>}:pending             hash: order id -> "<voucher id>:<user id>:<ms>",
--                                            the reservations of all the shard's sales
-- KEYS[4] seckill:{s<k>}:window:<vid>        hash: begin, end (unix ms)
-- KEYS[5] seckill:{s<k>}:rate:<user id>      zset: the user's recent claims (sliding window)
-- KEYS[6] orders:{s<k>}                      stream (only when the gate enqueues claims)
-- ARGV[1] user id
-- ARGV[2] order id (decimal string; never turned into a Lua number)
-- ARGV[3] now (unix ms)
-- ARGV[4] message payload (JSON), when KEYS[6] is given
-- ARGV[5] most claims per user per window (0: no limit)
-- ARGV[6] the window (ms)
-- ARGV[7] voucher id
-- ARGV[8] message metadata when KEYS[6] is given: a msgpack map carrying the claim's
--         trace context, or empty
-- Returns {verdict, n}: verdict 0 accepted (n = stock left), 1 sold out, 2 already
-- claimed, 3 not started, 4 ended, 5 not loaded, 6 rate limited (n = ms to wait).
--
-- Idempotent per claim (ARGV[2]): the client retries a call whose reply timed out
-- although the script may have run. A second run of an accepted claim meets its own
-- effects — the user in KEYS[2], the order id in KEYS[5] — and would answer 2 or 6; so
-- before answering either, the script looks for ARGV[2] in KEYS[3], and when it is there
-- for this voucher and user answers 0 again (n = the stock left now) and changes nothing:
-- no second unit, holder, reservation or stream message. The look-up is on refusals
-- only, so an accepted claim costs no extra command. A retry carries the first call's
-- arguments (the same now), so the window verdicts cannot differ. Once the order is
-- written its reservation is settled (dropped from KEYS[3]) and a retry would be
-- answered 2; retries come within milliseconds of the first call and settling only
-- after the queue wrote the order, so that window is accepted.
local now = tonumber(ARGV[3])
local limit = tonumber(ARGV[5])
if limit > 0 then
  local span = tonumber(ARGV[6])
  redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', now - span)
  if redis.call('ZCARD', KEYS[5]) >= limit then
    local r = redis.call('HGET', KEYS[3], ARGV[2])
    if r and string.sub(r, 1, #ARGV[7] + #ARGV[1] + 2) == ARGV[7] .. ':' .. ARGV[1] .. ':' then
      return {0, tonumber(redis.call('GET', KEYS[1]) or '0')}
    end
    local oldest = redis.call('ZRANGE', KEYS[5], 0, 0, 'WITHSCORES')
    return {6, tonumber(oldest[2]) + span - now}
  end
  redis.call('ZADD', KEYS[5], now, ARGV[2])
  redis.call('PEXPIRE', KEYS[5], span)
end
local window = redis.call('HMGET', KEYS[4], 'begin', 'end')
local stock = redis.call('GET', KEYS[1])
if not window[1] or not window[2] or not stock then
  return {5, 0}
end
if now < tonumber(window[1]) then
  return {3, 0}
end
if now >= tonumber(window[2]) then
  return {4, 0}
end
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then
  local r = redis.call('HGET', KEYS[3], ARGV[2])
  if r and string.sub(r, 1, #ARGV[7] + #ARGV[1] + 2) == ARGV[7] .. ':' .. ARGV[1] .. ':' then
    return {0, tonumber(stock)}
  end
  return {2, tonumber(stock)}
end
stock = tonumber(stock)
if stock <= 0 then
  return {1, 0}
end
redis.call('DECR', KEYS[1])
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[2], ARGV[7] .. ':' .. ARGV[1] .. ':' .. ARGV[3])
if KEYS[6] then
  redis.call('XADD', KEYS[6], '*', '_watermill_message_uuid', ARGV[2], 'metadata', ARGV[8] or '', 'payload', ARGV[4])
end
return {0, stock - 1}
