-- Takes over the fan-out jobs left unacknowledged for a while by their consumer, and drops
-- those delivered the most times allowed, in one step: deciding from one XPENDING and
-- claiming with another command let a job become idle in between and be claimed (and run
-- once more) past the limit.
--
-- KEYS[1] the fan-out stream (feed:fanout)
-- ARGV[1] the consumer group
-- ARGV[2] the consumer taking the jobs over
-- ARGV[3] how long a job must have been idle, ms (ClaimIdle)
-- ARGV[4] the most deliveries of a job (MaxDeliveries)
-- ARGV[5] the most jobs looked at
-- Returns {claimed, dropped}: claimed as XCLAIM replies ({id, {field, value, …}} each, now
-- delivered to ARGV[2]); dropped = {id, deliveries, id, deliveries, …}, acknowledged
-- unrun.
local max = tonumber(ARGV[4])
local pending = redis.call('XPENDING', KEYS[1], ARGV[1], 'IDLE', ARGV[3], '-', '+', ARGV[5])
local claim, drop, dropped = {}, {}, {}
for _, p in ipairs(pending) do
  -- p = {id, consumer, idle ms, deliveries}
  if tonumber(p[4]) >= max then
    drop[#drop + 1] = p[1]
    dropped[#dropped + 1] = p[1]
    dropped[#dropped + 1] = p[4]
  else
    claim[#claim + 1] = p[1]
  end
end
if #drop > 0 then
  redis.call('XACK', KEYS[1], ARGV[1], unpack(drop))
end
local claimed = {}
if #claim > 0 then
  claimed = redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], ARGV[3], unpack(claim))
end
return {claimed, dropped}
