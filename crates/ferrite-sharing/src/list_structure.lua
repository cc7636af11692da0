-- Ferrite's CF list structure (list_structure.rs): every operation on shared queues, each one
-- atomic. ARGV[1] = the structure's key prefix, ARGV[2] = the arrivals channel, ARGV[3] = the
-- operation; the rest depend on it. A record is: priority digit, MSGID (48 hex), CORRELID
-- (48 hex), data.

local prefix, arrivals, operation = ARGV[1], ARGV[2], ARGV[3]
local PRIORITY_STEP = 17592186044416 -- 2^44
local SCAN_MAX = 1000

local function queue_prefix(queue)
  return prefix .. 'q:' .. queue .. ':'
end

local function message_id(record)
  return string.sub(record, 2, 49)
end

local function correlation_id(record)
  return string.sub(record, 50, 97)
end

-- Make an entry visible: in the queue's order and under its MSGID and CORRELID.
local function index(q, entry, score, record)
  redis.call('ZADD', q .. 'i', score, entry)
  redis.call('ZADD', q .. 'm:' .. message_id(record), score, entry)
  redis.call('ZADD', q .. 'c:' .. correlation_id(record), score, entry)
end

local function unindex(q, entry, record)
  redis.call('ZREM', q .. 'i', entry)
  redis.call('ZREM', q .. 'm:' .. message_id(record), entry)
  redis.call('ZREM', q .. 'c:' .. correlation_id(record), entry)
end

-- An entry's place in its queue: by priority, then by entry.
local function score_of(record, entry)
  return (9 - tonumber(string.sub(record, 1, 1))) * PRIORITY_STEP + entry
end

-- An entry for record in queue, visible at once: `entry`, or a new one.
local function add(queue, record, entry)
  local q = queue_prefix(queue)
  entry = entry or redis.call('INCR', prefix .. 'seq')
  local score = score_of(record, entry)
  redis.call('HSET', q .. 'r', entry, record)
  index(q, entry, score, record)
  return entry
end

-- The first visible entry the selection matches after score `after`: entry, score.
local function choose(q, kind, first, second, after)
  local set = q .. 'i'
  if kind == 'M' or kind == 'B' then
    set = q .. 'm:' .. first
  elseif kind == 'C' then
    set = q .. 'c:' .. first
  end
  local limit = 1
  if kind == 'B' then limit = SCAN_MAX end
  local found = redis.call('ZRANGE', set, '(' .. after, '+inf', 'BYSCORE', 'LIMIT', 0, limit, 'WITHSCORES')
  for i = 1, #found, 2 do
    if kind ~= 'B' or correlation_id(redis.call('HGET', q .. 'r', found[i])) == second then
      return found[i], tonumber(found[i + 1])
    end
  end
  return nil
end

local function backouts(q, entry)
  return tonumber(redis.call('HGET', q .. 'b', entry) or '0')
end

-- Queues whose visible depth was 0 before this call changed them; told after.
local was_empty = {}
local function touching(queue)
  if was_empty[queue] == nil then
    was_empty[queue] = redis.call('ZCARD', queue_prefix(queue) .. 'i') == 0
  end
end
local function announce()
  for queue, empty in pairs(was_empty) do
    if empty and redis.call('ZCARD', queue_prefix(queue) .. 'i') > 0 then
      redis.call('PUBLISH', arrivals, queue)
    end
  end
end

local function stage(unit_key, units_key, unit_name, change)
  redis.call('RPUSH', unit_key, change)
  redis.call('SADD', units_key, unit_name)
end

-- The structure exists from its allocation (its state key) until the server loses it: every
-- operation but allocation, restore and backout refuses to run on a structure that is not
-- there, so that a structure lost with its messages is never taken for an empty one.
if operation == 'allocate' then
  redis.call('SET', prefix .. 'state', 'ACTIVE', 'NX')
  local entries = tonumber(ARGV[4] or '0')
  if tonumber(redis.call('GET', prefix .. 'seq') or '0') < entries then
    redis.call('SET', prefix .. 'seq', entries)
  end
  return 1
end

if operation == 'restore' then
  local touched = {}
  for i = 4, #ARGV, 4 do
    local queue, entry, count, record = ARGV[i], tonumber(ARGV[i + 1]), ARGV[i + 2], ARGV[i + 3]
    touching(queue)
    add(queue, record, entry)
    if count ~= '0' then redis.call('HSET', queue_prefix(queue) .. 'b', entry, count) end
  end
  announce()
  return 1
end

if operation ~= 'backout' and redis.call('EXISTS', prefix .. 'state') == 0 then
  return redis.error_reply('FERRITE_NOT_ALLOCATED the structure is not allocated')
end

if operation == 'put' then
  local queue, record, unit_key, units_key, unit_name = ARGV[4], ARGV[5], ARGV[6], ARGV[7], ARGV[8]
  if unit_key ~= '' then
    -- The entry is given now (the member logs it), the message made visible at commit.
    local entry = redis.call('INCR', prefix .. 'seq')
    stage(unit_key, units_key, unit_name, 'P|' .. queue .. '|' .. entry .. '|' .. record)
    return entry
  end
  touching(queue)
  local entry = add(queue, record)
  announce()
  return entry
end

if operation == 'get' or operation == 'browse' then
  local queue, kind, first, second = ARGV[4], ARGV[5], ARGV[6], ARGV[7]
  local q = queue_prefix(queue)
  local after = 0
  if operation == 'browse' then after = ARGV[8] end
  local entry, score = choose(q, kind, first, second, after)
  if entry == nil then return nil end
  local record = redis.call('HGET', q .. 'r', entry)
  local count = backouts(q, entry)
  if operation == 'get' then
    local unit_key, units_key, unit_name = ARGV[8], ARGV[9], ARGV[10]
    unindex(q, entry, record)
    if unit_key ~= '' then
      stage(unit_key, units_key, unit_name, 'G|' .. queue .. '|' .. entry)
    else
      redis.call('HDEL', q .. 'r', entry)
      redis.call('HDEL', q .. 'b', entry)
    end
  end
  return {score, record, count, entry}
end

if operation == 'depth' then
  return redis.call('ZCARD', queue_prefix(ARGV[4]) .. 'i')
end

if operation == 'commit' or operation == 'backout' then
  local unit_key, units_key, unit_name = ARGV[4], ARGV[5], ARGV[6]
  -- A unit that also holds private queues' work (two-phase commit): the member's decision to
  -- commit URID is recorded with the commit itself, and its prepared mark removed.
  local prepared_key, decisions_key, urid = ARGV[7] or '', ARGV[8] or '', ARGV[9] or ''
  -- Peer recovery backs a failed member's units out and lists them in its aborted set: a
  -- member that was only cut off and commits such a unit later gets it backed out instead.
  local aborted_key, by_peer = ARGV[10] or '', ARGV[11] == 'peer'
  local refused = false
  if operation == 'commit' and aborted_key ~= '' and redis.call('SREM', aborted_key, unit_name) == 1 then
    operation = 'backout'
    refused = true
  end
  -- A unit whose staged changes are gone went with a structure the coupling facility lost:
  -- it cannot commit (every unit with work has a list: a member ends only units it staged in).
  if operation == 'commit' and redis.call('EXISTS', unit_key) == 0 then
    return redis.error_reply('FERRITE_BACKED_OUT unit ' .. unit_name .. ' was lost with the structure')
  end
  if operation == 'backout' and by_peer then
    redis.call('SADD', aborted_key, unit_name)
  end
  if operation == 'commit' and urid ~= '' then
    redis.call('HDEL', prepared_key, urid)
    redis.call('HSET', decisions_key, urid, unit_name)
  end
  local changes = redis.call('LRANGE', unit_key, 0, -1)
  for _, change in ipairs(changes) do
    local kind = string.sub(change, 1, 1)
    local rest = string.sub(change, 3)
    local bar = string.find(rest, '|', 1, true)
    local queue = string.sub(rest, 1, bar - 1)
    local tail = string.sub(rest, bar + 1)
    local q = queue_prefix(queue)
    touching(queue)
    if kind == 'P' and operation == 'commit' then
      local split = string.find(tail, '|', 1, true)
      add(queue, string.sub(tail, split + 1), tonumber(string.sub(tail, 1, split - 1)))
    elseif kind == 'G' then
      local entry = tail
      if operation == 'commit' then
        redis.call('HDEL', q .. 'r', entry)
        redis.call('HDEL', q .. 'b', entry)
      else
        -- Back in its place: the score is computed again (as a number: Lua's text form of
        -- a number this large would round it).
        local record = redis.call('HGET', q .. 'r', entry)
        redis.call('HINCRBY', q .. 'b', entry, 1)
        index(q, entry, score_of(record, tonumber(entry)), record)
      end
    end
  end
  redis.call('DEL', unit_key)
  redis.call('SREM', units_key, unit_name)
  announce()
  if refused then
    return redis.error_reply('FERRITE_BACKED_OUT unit ' .. unit_name .. ' was backed out by peer recovery')
  end
  return #changes
end

return redis.error_reply('ferrite list structure: unknown operation ' .. tostring(operation))
