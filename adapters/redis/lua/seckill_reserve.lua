-- Reserve one unit of a flash sale for each of one or more claims on the sale, in one
-- atomic step that decides each claim in turn. An uncoalesced claim is a batch of one;
-- a coalesced batch's claims on one sale (one bucket of a split sale) share a run.
-- Every key shares the sale's shard hash tag {s<k>}, so the script runs on Redis Cluster.
--
-- KEYS[1] seckill:{s<k>}:stock:<vid>         string: units left
-- KEYS[2] seckill:{s<k>}:users:<vid>         set: users holding an order
-- KEYS[3] seckill:{s<k>}:pending             hash: order id -> "<voucher id>:<user id>:<ms>",
--                                            the reservations of all the shard's sales
-- KEYS[4] seckill:{s<k>}:window:<vid>        hash: begin, end (unix ms)
-- KEYS[5] orders:{s<k>}                      stream, only when the gate enqueues claims
-- KEYS[4 + s + i] seckill:{s<k>}:rate:<user id of claim i>, s = 1 with the stream, else 0
--                                            zset: the user's recent claims (sliding window)
-- ARGV[1] most claims per user per window (0: no limit)
-- ARGV[2] the window (ms)
-- ARGV[3] voucher id
-- ARGV[3 + 5(i-1) + 1..5] claim i: user id, order id (decimal string; never turned
--   into a Lua number), now (unix ms), message payload (JSON, when the stream is used),
--   message metadata (a msgpack map carrying the claim's trace context, or empty)
-- The number of claims is (#ARGV - 3) / 5, and the stream is given when #KEYS has one
-- key more than 4 + that: a claim alone costs no more arguments than its own.
-- Returns {verdict 1, n 1, verdict 2, n 2, ...}, one pair per claim: verdict 0 accepted
-- (n = stock left), 1 sold out, 2 already claimed, 3 not started, 4 ended, 5 not loaded,
-- 6 rate limited (n = ms to wait).
--
-- Idempotent per claim (its order id): the client retries a call whose reply timed out
-- although the script may have run. A second run of an accepted claim meets its own
-- effects — the user in KEYS[2], the order id in the user's rate zset — and would
-- answer 2 or 6; so before answering either, the script looks for the order id in
-- KEYS[3], and when it is there for this voucher and user answers 0 again (n = the
-- stock left now) and changes nothing: no second unit, holder, reservation or stream
-- message. The look-up is on refusals only, so an accepted claim costs no extra command.
-- A retry carries the first call's arguments (the same now), so the window verdicts
-- cannot differ. Once the order is written its reservation is settled (dropped from
-- KEYS[3]) and a retry would be answered 2; retries come within milliseconds of the
-- first call and settling only after the queue wrote the order, so that window is
-- accepted.
local count = (#ARGV - 3) / 5
local streamed = #KEYS - 4 - count
local limit = tonumber(ARGV[1])
local span = tonumber(ARGV[2])
local voucher = ARGV[3]
local window = redis.call('HMGET', KEYS[4], 'begin', 'end')
local prefix = voucher .. ':'
-- retried: the verdict of a claim already accepted by an earlier run of this call, or nil.
local function retried(user, order, stock)
  local r = redis.call('HGET', KEYS[3], order)
  local mine = prefix .. user .. ':'
  if r and string.sub(r, 1, #mine) == mine then
    return 0, tonumber(stock or redis.call('GET', KEYS[1]) or '0')
  end
  return nil
end
local out = {}
for i = 1, count do
  local a = 3 + 5 * (i - 1)
  local user, order, now, payload = ARGV[a + 1], ARGV[a + 2], tonumber(ARGV[a + 3]), ARGV[a + 4]
  local rate = KEYS[4 + streamed + i]
  local verdict, n = nil, 0
  if limit > 0 then
    redis.call('ZREMRANGEBYSCORE', rate, '-inf', now - span)
    if redis.call('ZCARD', rate) >= limit then
      verdict, n = retried(user, order, nil)
      if not verdict then
        local oldest = redis.call('ZRANGE', rate, 0, 0, 'WITHSCORES')
        verdict, n = 6, tonumber(oldest[2]) + span - now
      end
    else
      redis.call('ZADD', rate, now, order)
      redis.call('PEXPIRE', rate, span)
    end
  end
  if not verdict then
    local stock = redis.call('GET', KEYS[1])
    if not window[1] or not window[2] or not stock then
      verdict = 5
    elseif now < tonumber(window[1]) then
      verdict = 3
    elseif now >= tonumber(window[2]) then
      verdict = 4
    elseif redis.call('SISMEMBER', KEYS[2], user) == 1 then
      verdict, n = retried(user, order, stock)
      if not verdict then
        verdict, n = 2, tonumber(stock)
      end
    elseif tonumber(stock) <= 0 then
      verdict = 1
    else
      redis.call('DECR', KEYS[1])
      redis.call('SADD', KEYS[2], user)
      redis.call('HSET', KEYS[3], order, voucher .. ':' .. user .. ':' .. ARGV[a + 3])
      if streamed == 1 then
        redis.call('XADD', KEYS[5], '*', '_watermill_message_uuid', order, 'metadata', ARGV[a + 5], 'payload', payload)
      end
      verdict, n = 0, tonumber(stock) - 1
    end
  end
  out[2 * i - 1] = verdict
  out[2 * i] = n
end
return out
