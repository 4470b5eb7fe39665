-- Runs the Skald FiveM resource under plain lua5.4 with FiveM's natives stubbed, and nothing else: events,
-- convars, player names and identifiers, exports, threads and timers (on a virtual clock, so retry delays
-- of minutes pass at once), the `json` global, and PerformHttpRequest as a REAL HTTP request (curl) with
-- FXServer's callback shape: an answer of 400 or more reaches the callback with no headers and its body
-- only inside errorData ('HTTP 429: <body>').
--
--   SKALD_URL=http://127.0.0.1:8080 SKALD_API_KEY=... lua5.4 harness.lua <scenario>
--
-- Prints one line `RESULT <json>` with what happened (requests, console lines); never the API key.
local here = arg[0]:match('^(.*)/[^/]*$') or '.'
local resourceDir = here .. '/../skald'
json = dofile(here .. '/json.lua')

-- Virtual clock and scheduler ------------------------------------------------------------------------
local now, seq, timers = 0, 0, {}
local function schedule(at, fn)
  seq = seq + 1
  timers[#timers + 1] = { at = at, seq = seq, fn = fn }
end
local function resume(co)
  local ok, err = coroutine.resume(co)
  if not ok then error(debug.traceback(co, err), 0) end
end
function GetGameTimer() return now end
function SetTimeout(ms, fn) schedule(now + ms, fn) end
function CreateThread(fn) local co = coroutine.create(fn); schedule(now, function() resume(co) end) end
function Wait(ms)
  local co = coroutine.running()
  schedule(now + ms, function() resume(co) end)
  coroutine.yield()
end
Citizen = { CreateThread = CreateThread, SetTimeout = SetTimeout, Wait = Wait }

--- Runs every timer due within `ms` of virtual time, in order.
local function advance(ms)
  local target = now + ms
  while true do
    local best
    for i, t in ipairs(timers) do
      if t.at <= target and (not best or t.at < timers[best].at or (t.at == timers[best].at and t.seq < timers[best].seq)) then best = i end
    end
    if not best then break end
    local t = table.remove(timers, best)
    now = math.max(now, t.at)
    t.fn()
  end
  now = target
end

-- Convars, players, resources, events, exports -----------------------------------------------------
local convars = { skald_url = os.getenv('SKALD_URL') or '', skald_api_key = os.getenv('SKALD_API_KEY') or '' }
function GetConvar(name, default) local v = convars[name]; if v == nil then return default end; return v end
function GetCurrentResourceName() return 'skald' end
local invoking = nil
function GetInvokingResource() return invoking end

local players = {}
function GetPlayerName(src) local p = players[tonumber(src)]; return p and p.name or nil end
function GetPlayerIdentifiers(src) local p = players[tonumber(src)]; return p and p.identifiers or {} end

local resourceStates = {}
function GetResourceState(name) return resourceStates[name] or 'missing' end

local handlers = {}
function AddEventHandler(name, fn) handlers[name] = handlers[name] or {}; table.insert(handlers[name], fn) end
function RegisterNetEvent(name) end
--- A server event as FiveM delivers it: `source` is the player (or '' for server-local events).
local function TriggerEvent(name, src, ...)
  for _, fn in ipairs(handlers[name] or {}) do
    source = src
    fn(...)
  end
  source = nil
end

local ownExports = {}
exports = setmetatable({}, {
  __call = function(_, name, fn) ownExports[name] = fn end,
  __index = function(_, resource) return rawget(_G, '__exports_' .. resource) end,
})

local console = {}
local realPrint = print
function print(...)
  local parts = {}
  for i = 1, select('#', ...) do parts[#parts + 1] = tostring(select(i, ...)) end
  console[#console + 1] = table.concat(parts, ' ')
end

-- PerformHttpRequest through curl ------------------------------------------------------------------
local requests = {}
local tmp = os.tmpname()
local function writeFile(path, data) local f = assert(io.open(path, 'wb')); f:write(data); f:close() end
local function readFile(path) local f = io.open(path, 'rb'); if not f then return '' end; local d = f:read('a'); f:close(); return d end

function PerformHttpRequest(url, cb, method, data, headers)
  writeFile(tmp .. '.body', data or '')
  local lines = {}
  for k, v in pairs(headers or {}) do lines[#lines + 1] = ('%s: %s'):format(k, v) end
  writeFile(tmp .. '.headers', table.concat(lines, '\n') .. '\n')
  local command = ("curl -sS -m 20 -o '%s.out' -w '%%{http_code}' -X %s -H @'%s.headers' --data-binary @'%s.body' '%s' 2>/dev/null")
    :format(tmp, method or 'GET', tmp, tmp, url:gsub("'", ''))
  local pipe = assert(io.popen(command))
  local status = tonumber(pipe:read('a')) or 0
  pipe:close()
  local body = status ~= 0 and readFile(tmp .. '.out') or ''
  local count = nil
  if (headers or {})['Content-Type'] == 'application/json' then count = #json.decode(data) end
  requests[#requests + 1] = {
    at = now, path = url:match('^https?://[^/]+(/[^?]*)') or url, status = status, count = count,
    keyInHeader = (headers or {})['X-API-Key'] == convars.skald_api_key and convars.skald_api_key ~= '',
    keyInUrl = url:find('apiKey', 1, true) ~= nil,
  }
  -- FXServer calls back later, on the server's thread; >= 400: no headers, body only in errorData.
  SetTimeout(0, function()
    if status == 0 then cb(0, nil, {}, 'curl: no answer')
    elseif status >= 400 then cb(status, nil, {}, ('HTTP %d: %s'):format(status, body))
    else cb(status, body, { ['Content-Type'] = 'application/json' }, nil) end
  end)
end

-- Load the resource as FXServer would: the manifest's server_scripts, in order ----------------------
local manifest = { server_scripts = {} }
local manifestEnv = setmetatable({
  server_scripts = function(list) manifest.server_scripts = list end,
  server_exports = function(list) manifest.server_exports = list end,
}, { __index = function() return function() end end })
assert(loadfile(resourceDir .. '/fxmanifest.lua', 't', manifestEnv))()
for _, file in ipairs(manifest.server_scripts) do dofile(resourceDir .. '/' .. file) end
advance(0)

local function callExport(name, from, ...)
  invoking = from
  local result = ownExports[name](...)
  invoking = nil
  return result
end

-- Scenarios -------------------------------------------------------------------------------------------
local scenarios = {}
local result = {}

--- Join, chat, die and leave a fake player; one export and one event; then a burst past the batch size.
function scenarios.players()
  players[1] = { name = 'Ann Harness', identifiers = { 'license:abc123', 'ip:10.0.0.9' } }
  players[2] = { name = 'Bob Harness', identifiers = { 'license:def456' } }
  TriggerEvent('playerJoining', 1, '1')
  TriggerEvent('playerJoining', 2, '2')
  TriggerEvent('chatMessage', '', 1, 'Ann Harness', 'hello from the harness')
  TriggerEvent('baseevents:onPlayerKilled', 1, 2, { weaponhash = 453432689 })
  TriggerEvent('baseevents:onPlayerDied', 2, 0, { 1.0, 2.0, 3.0 })
  TriggerEvent('playerDropped', 1, 'Exiting')
  callExport('log', 'harness-bank', 'error', 'Economy', 'Bank desync on account 12', { account = 12 })
  TriggerEvent('skald:log', '', 'debug', 'Custom', 'sent through the skald:log event', nil)
  result.beforeFlush = #requests
  advance(Config.FlushIntervalMs + 100)
  result.afterFirstFlush = #requests
  for i = 1, 250 do callExport('log', 'harness-burst', 'info', 'Burst', ('burst %d'):format(i)) end
  advance(Config.FlushIntervalMs * 3)
  -- A screenshot through screenshot-basic (stubbed: it hands back a real 8x8 PNG as a data URI).
  resourceStates['screenshot-basic'] = 'started'
  rawset(_G, '__exports_screenshot-basic', {
    requestClientScreenshot = function(_self, player, options, cb)
      result.screenshotOptions = options
      result.screenshotPlayer = player
      cb(false, 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGM4ISeHFTEMLQkAkL9BAbKfPiIAAAAASUVORK5CYII=')
    end,
  })
  result.screenshotStarted = callExport('screenshot', 'harness-admin', 1, 'Screenshot of Ann', 'info', 'Screenshot', { reason = 'report' })
  advance(100)
  result.queued = SkaldQueue.size()
end

--- The server's quota is spent: the batch is kept and sent again only after the body's retryAfter.
function scenarios.retry()
  for i = 1, 3 do callExport('log', 'harness-retry', 'info', 'Retry', ('kept %d'):format(i)) end
  advance(Config.FlushIntervalMs + 100)
  result.firstStatus = requests[1] and requests[1].status
  local line = console[#console] or ''
  result.announcedDelay = tonumber(line:match('retrying in (%d+) s'))
  local delayMs = (result.announcedDelay or 0) * 1000
  advance(delayMs - 1000)
  result.requestsBeforeDelay = #requests
  advance(Config.FlushIntervalMs + 1000)
  result.requestsAfterDelay = #requests
  result.retriedCount = requests[#requests] and requests[#requests].count
  result.queued = SkaldQueue.size()
end

--- Skald unreachable for a while (a closed port), then back: nothing is lost; a full queue drops the
--- oldest and says so.
function scenarios.outage()
  local realUrl = convars.skald_url
  convars.skald_url = os.getenv('SKALD_DOWN_URL')
  for i = 1, 5 do callExport('log', 'harness-outage', 'warn', 'Outage', ('during outage %d'):format(i)) end
  advance(Config.FlushIntervalMs + 100)
  advance(10000)
  result.failedAttempts = #requests
  convars.skald_url = realUrl
  advance(Config.MaxBackoffSeconds * 1000 + Config.FlushIntervalMs)
  result.queuedAfterRecovery = SkaldQueue.size()
  result.lastStatus = requests[#requests].status
  -- A full queue: with no URL nothing is sent, so 15 logs into a queue of 10 drop the 5 oldest.
  convars.skald_url = ''
  Config.MaxQueue = 10
  for i = 1, 15 do callExport('log', 'harness-outage', 'info', 'Overflow', ('overflow %d'):format(i)) end
  advance(Config.FlushIntervalMs + 100)
  result.queuedAfterOverflow = SkaldQueue.size()
end

local name = arg[1] or 'players'
assert(scenarios[name], 'unknown scenario ' .. name)
scenarios[name]()
result.requests = requests
result.console = console
os.remove(tmp); os.remove(tmp .. '.body'); os.remove(tmp .. '.headers'); os.remove(tmp .. '.out')
realPrint('RESULT ' .. json.encode(result))
