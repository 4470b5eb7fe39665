-- The send queue: logs wait here and go to Skald as one JSON array per flush, with the key in X-API-Key.
-- 5xx, 429 and network errors keep the batch and retry after Skald's delay (the `retryAfter` seconds of
-- the answer's body: FXServer's PerformHttpRequest gives a script no headers for answers of 400 or more,
-- only `errorData` = 'HTTP 429: <body>'), else after a growing backoff. Nothing is dropped until the
-- queue is full (Config.MaxQueue); then the oldest go, and the console says how many.
-- Each log carries the time it happened (`timestamp`), taken when it is queued, never when it is sent.
-- The API key is never printed.

SkaldQueue = {}

local LEVELS = { info = true, warn = true, warning = true, error = true, fatal = true, debug = true }
local MAX_MESSAGE = 10000 -- Skald's limits (POST /api/logs): longer text would refuse the whole batch
local MAX_FIELD = 200
local MAX_METADATA = 16384 -- characters of the metadata as JSON

local queue = {}        -- { seq = n, log = { ... } }, oldest first
local nextSeq = 1
local inFlight = false
local retryAt = 0        -- GetGameTimer() before which nothing is sent
local failures = 0
local droppedSinceReport = 0
local warned = {}
local timestampsRefused = false -- this Skald does not know the field: logs go without it
local clockOffsetMs = nil       -- wall-clock ms minus GetGameTimer(), learnt by SkaldQueue.timestamp

local function say(text)
  print(('^3[skald]^7 %s'):format(text))
end
--- A console line of the resource, prefixed [skald]; never given the key.
SkaldQueue.say = say

local function warnOnce(key, text)
  if warned[key] then return end
  warned[key] = true
  say(text)
end

local function clip(value, max)
  if #value > max then return value:sub(1, max) end
  return value
end

--- The convars, read at every flush so `set skald_api_key` takes effect without a restart.
local function endpoint()
  local url = GetConvar('skald_url', '')
  local key = GetConvar('skald_api_key', '')
  if url == '' or key == '' then return nil, nil end
  return (url:gsub('/+$', '')), key
end
SkaldQueue.endpoint = endpoint

--- The time now as ISO 8601 UTC with milliseconds. Lua's wall clock (os.time) counts whole seconds and
--- GetGameTimer milliseconds from an arbitrary start, so their offset is learnt: each reading bounds it
--- to [wall second - timer, + 999 ms]; the highest lower bound seen is kept (the estimate tightens as
--- readings fall just after a second turns), and dropped when a reading contradicts it (the wall clock
--- was set back). The result is never more than a second off the wall clock.
function SkaldQueue.timestamp()
  local timer = GetGameTimer()
  local low = os.time() * 1000 - timer
  if clockOffsetMs == nil or low > clockOffsetMs or clockOffsetMs > low + 999 then clockOffsetMs = low end
  local ms = math.tointeger(clockOffsetMs + timer) or math.floor(clockOffsetMs + timer)
  return os.date('!%Y-%m-%dT%H:%M:%S', ms // 1000) .. ('.%03dZ'):format(ms % 1000)
end

--- Metadata Skald will take: a table with entries that encodes as a JSON object within the size limit.
--- Anything else would refuse the whole batch, so it is replaced by a note of what was wrong.
local function safeMetadata(metadata)
  if type(metadata) ~= 'table' or next(metadata) == nil then return nil end
  local ok, encoded = pcall(json.encode, metadata)
  if not ok then return { metadataError = 'not JSON: ' .. clip(tostring(encoded), MAX_FIELD) } end
  if encoded:sub(1, 1) ~= '{' then return { metadataError = 'not a table with string keys' } end
  if #encoded > MAX_METADATA then return { metadataError = ('%d characters as JSON, over the %d Skald keeps'):format(#encoded, MAX_METADATA) } end
  return metadata
end

--- A log as Skald accepts it: a known level, text within the limits, metadata only when it has entries
--- (an empty Lua table would be encoded as [] and refused: metadata must be a JSON object), and the time
--- it happened.
function SkaldQueue.normalize(level, logType, message, metadata, resource)
  level = type(level) == 'string' and level:lower() or 'info'
  if not LEVELS[level] then level = 'info' end
  message = message ~= nil and tostring(message) or ''
  if message:match('^%s*$') then message = '(empty message)' end
  local log = { level = level, message = clip(message, MAX_MESSAGE) }
  if type(logType) == 'string' and logType ~= '' then log.type = clip(logType, MAX_FIELD) end
  if type(resource) == 'string' and resource ~= '' then log.resource = clip(resource, MAX_FIELD) end
  log.metadata = safeMetadata(metadata)
  if Config.SendTimestamp and not timestampsRefused then log.timestamp = SkaldQueue.timestamp() end
  return log
end

--- When Skald's 400 (errorData 'HTTP 400: {...}') names a log's `timestamp` field: its error text, and
--- whether the field is unknown to this Skald (one older than the field) rather than a bad value.
function SkaldQueue.timestampRefusal(errorData)
  if type(errorData) ~= 'string' then return nil end
  local ok, decoded = pcall(json.decode, errorData:match('^HTTP %d+: (.*)$') or errorData)
  if not ok or type(decoded) ~= 'table' or type(decoded.field) ~= 'string' then return nil end
  if decoded.field ~= 'timestamp' and not decoded.field:match('^%[%d+%]%.timestamp$') then return nil end
  local text = type(decoded.error) == 'string' and decoded.error or decoded.field
  return text, text:find('not an allowed field', 1, true) ~= nil
end

--- After a refusal of the field itself: no log carries it any more (queued ones included), said once.
function SkaldQueue.stopTimestamps()
  if timestampsRefused then return end
  timestampsRefused = true
  for _, entry in ipairs(queue) do entry.log.timestamp = nil end
  say('this Skald does not take the time a log happened (timestamp); logs are sent without it and get the time they arrive')
end

function SkaldQueue.timestampsRefused()
  return timestampsRefused
end

function SkaldQueue.push(log)
  queue[#queue + 1] = { seq = nextSeq, log = log }
  nextSeq = nextSeq + 1
  local over = #queue - Config.MaxQueue
  if over > 0 then
    table.move(queue, over + 1, #queue, 1)
    for i = #queue, #queue - over + 1, -1 do queue[i] = nil end
    droppedSinceReport = droppedSinceReport + over
  end
  if #queue >= Config.BatchSize then SkaldQueue.flush() end
end

function SkaldQueue.size()
  return #queue
end

local function removeThrough(seq)
  local keep = {}
  for _, entry in ipairs(queue) do
    if entry.seq > seq then keep[#keep + 1] = entry end
  end
  queue = keep
end

--- Skald's `retryAfter` (seconds) from the body inside errorData ('HTTP 429: {...}'), or nil.
function SkaldQueue.retryAfterOf(errorData, headers)
  if type(headers) == 'table' then
    local header = tonumber(headers['Retry-After'] or headers['retry-after'])
    if header then return header end
  end
  if type(errorData) ~= 'string' then return nil end
  local body = errorData:match('^HTTP %d+: (.*)$') or errorData
  local ok, decoded = pcall(json.decode, body)
  if ok and type(decoded) == 'table' and type(decoded.retryAfter) == 'number' and decoded.retryAfter > 0 then return decoded.retryAfter end
  return nil
end

--- Skald's `error` text from errorData, for the console.
local function errorTextOf(errorData)
  if type(errorData) ~= 'string' then return 'no answer' end
  local body = errorData:match('^HTTP %d+: (.*)$') or errorData
  local ok, decoded = pcall(json.decode, body)
  if ok and type(decoded) == 'table' and type(decoded.error) == 'string' then return decoded.error end
  return errorData:sub(1, 200)
end

local function backoffSeconds()
  return math.min(2 ^ failures, Config.MaxBackoffSeconds)
end

local function retryLater(seconds, why)
  retryAt = GetGameTimer() + math.floor(seconds * 1000)
  say(('%s; retrying in %d s (%d logs queued)'):format(why, seconds, #queue))
end

local function onAnswer(status, lastSeq, count, errorData, headers)
  inFlight = false
  status = tonumber(status) or 0
  if status >= 200 and status < 300 then
    removeThrough(lastSeq)
    failures = 0
    retryAt = 0
    if #queue >= Config.BatchSize then SkaldQueue.flush() end
    return
  end
  if status == 429 or status >= 500 or status == 0 then
    failures = failures + 1
    local wait = SkaldQueue.retryAfterOf(errorData, headers) or backoffSeconds()
    retryLater(wait, ('Skald answered %s (%s)'):format(status == 0 and 'nothing' or tostring(status), errorTextOf(errorData)))
    return
  end
  if status == 401 or status == 403 then
    -- A wrong or reset key, or a suspended server: keep the logs until the convar is fixed.
    failures = failures + 1
    retryLater(Config.MaxBackoffSeconds, ('Skald refused the API key (%d: %s); check `set skald_api_key`'):format(status, errorTextOf(errorData)))
    return
  end
  local refusal, unknownField = SkaldQueue.timestampRefusal(errorData)
  if status == 400 and refusal then
    -- The batch is fine without its times: send it again at once without them.
    if unknownField then
      SkaldQueue.stopTimestamps()
    else
      say(('Skald refused the time of a log (%s); the batch is sent again without times'):format(refusal))
      for _, entry in ipairs(queue) do
        if entry.seq <= lastSeq then entry.log.timestamp = nil end
      end
    end
    SkaldQueue.flush()
    return
  end
  -- 400, 413, 415: the batch can never be accepted as it is.
  removeThrough(lastSeq)
  say(('Skald refused %d logs (%d: %s); they were dropped'):format(count, status, errorTextOf(errorData)))
end

--- Sends the oldest logs (at most Config.BatchSize) as one JSON array, unless a request is in flight
--- or a retry delay runs.
function SkaldQueue.flush()
  if droppedSinceReport > 0 then
    say(('queue full (%d logs): dropped the %d oldest'):format(Config.MaxQueue, droppedSinceReport))
    droppedSinceReport = 0
  end
  if inFlight or #queue == 0 or GetGameTimer() < retryAt then return end
  local url, key = endpoint()
  if not url then
    warnOnce('config', 'set skald_url and skald_api_key in server.cfg; logs are kept until then')
    return
  end
  local count = math.min(#queue, Config.BatchSize)
  local batch = {}
  for i = 1, count do batch[i] = queue[i].log end
  local lastSeq = queue[count].seq
  inFlight = true
  PerformHttpRequest(url .. '/api/logs', function(status, _body, headers, errorData)
    onAnswer(status, lastSeq, count, errorData, headers)
  end, 'POST', json.encode(batch), { ['Content-Type'] = 'application/json', ['X-API-Key'] = key })
end

--- Queues one log; `resource` defaults to this resource's name.
function SkaldQueue.log(level, logType, message, metadata, resource)
  SkaldQueue.push(SkaldQueue.normalize(level, logType, message, metadata, resource or GetCurrentResourceName()))
end
