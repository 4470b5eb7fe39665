-- A stub FXServer for one resource under plain lua5.4: FiveM's natives and nothing else. Events,
-- convars, player names and identifiers, exports, threads and timers (on a virtual clock, so retry delays
-- of minutes pass at once), the `json` global, and PerformHttpRequest as a REAL HTTP request (curl) with
-- FXServer's callback shape: an answer of 400 or more reaches the callback with no headers and its body
-- only inside errorData ('HTTP 429: <body>').
--
-- Events follow FXServer's Lua scheduler (citizen/scripting/lua/scheduler.lua), including its net-safety
-- rule: an event sent by a client (source 'net:<id>') reaches this resource's handlers only if THIS
-- resource called RegisterNetEvent for it; else the server prints "event <name> was not safe for net"
-- and drops it. Events the server raises about a player ('internal-net:<id>': playerJoining,
-- playerDropped) and events other server resources trigger (source '') are delivered as they are.
-- Arguments cross as copies, as msgpack makes them.
local fx = {
  console = {},
  requests = {},
  players = {},
  resourceStates = {},
  convars = { skald_url = os.getenv('SKALD_URL') or '', skald_api_key = os.getenv('SKALD_API_KEY') or '' },
}

-- Virtual clock and scheduler ------------------------------------------------------------------------
local now, seq, timers = 0, 0, {}
local function schedule(at, fn)
  seq = seq + 1
  timers[#timers + 1] = { at = at, seq = seq, fn = fn }
end
local function resume(co, ...)
  local ok, err = coroutine.resume(co, ...)
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
Citizen = { CreateThread = CreateThread, SetTimeout = SetTimeout, Wait = Wait, Trace = function(text) fx.trace(text) end }

--- Runs every timer due within `ms` of virtual time, in order.
function fx.advance(ms)
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

-- Console ----------------------------------------------------------------------------------------------
function print(...)
  local parts = {}
  for i = 1, select('#', ...) do parts[#parts + 1] = tostring(select(i, ...)) end
  fx.console[#fx.console + 1] = table.concat(parts, ' ')
end
function fx.trace(text) fx.console[#fx.console + 1] = (text:gsub('\n$', '')) end

-- Convars, players, resources --------------------------------------------------------------------------
function GetConvar(name, default) local v = fx.convars[name]; if v == nil then return default end; return v end
function GetCurrentResourceName() return 'skald' end
local invoking = nil
function GetInvokingResource() return invoking end
function GetPlayerName(src) local p = fx.players[tonumber(src)]; return p and p.name or nil end
function GetPlayerIdentifiers(src)
  local p = fx.players[tonumber(src)]
  local copy = {}
  for i, id in ipairs(p and p.identifiers or {}) do copy[i] = id end
  return copy
end
function GetResourceState(name) return fx.resourceStates[name] or 'missing' end

-- Events -------------------------------------------------------------------------------------------------
local eventHandlers = {} -- [name] = { handlers = { fn, ... }, safeForNet = bool }

local function entryOf(name)
  eventHandlers[name] = eventHandlers[name] or {}
  return eventHandlers[name]
end

function AddEventHandler(name, fn)
  local entry = entryOf(name)
  entry.handlers = entry.handlers or {}
  table.insert(entry.handlers, fn)
  return { key = #entry.handlers, name = name }
end

function RegisterNetEvent(name, fn)
  entryOf(name).safeForNet = true
  if fn then return AddEventHandler(name, fn) end
end
RegisterServerEvent = RegisterNetEvent

local function copy(value)
  if type(value) ~= 'table' then return value end
  local out = {}
  for k, v in pairs(value) do out[k] = copy(v) end
  return out
end

--- Delivers an event as the scheduler does: `eventSource` is '', 'net:<id>' or 'internal-net:<id>'.
local function dispatch(name, eventSource, ...)
  local entry = eventHandlers[name]
  if not entry or not entry.handlers then return end
  local args = table.pack(...)
  for i = 1, args.n do args[i] = copy(args[i]) end
  local lastSource = source
  source = eventSource
  if eventSource:sub(1, 3) == 'net' then
    if not entry.safeForNet then
      Citizen.Trace('event ' .. name .. ' was not safe for net\n')
      source = lastSource
      return
    end
    source = tonumber(eventSource:sub(5))
  elseif eventSource:sub(1, 12) == 'internal-net' then
    source = tonumber(eventSource:sub(14))
  end
  for _, handler in ipairs(entry.handlers) do
    -- CreateThreadNow: each handler runs at once in a thread of its own (it may Wait).
    resume(coroutine.create(function() handler(table.unpack(args, 1, args.n)) end))
  end
  source = lastSource
end

--- TriggerEvent from another server resource (chat's chatMessage, txAdmin's events).
function fx.emitLocal(name, ...) dispatch(name, '', ...) end
--- An event the server raises about a player (playerJoining, playerDropped).
function fx.emitFromServer(name, playerId, ...) dispatch(name, 'internal-net:' .. playerId, ...) end
--- TriggerServerEvent from a player's client (baseevents' death events).
function fx.emitFromClient(name, playerId, ...) dispatch(name, 'net:' .. playerId, ...) end

-- Exports ------------------------------------------------------------------------------------------------
local ownExports = {}
local otherResources = {}
exports = setmetatable({}, {
  __call = function(_, name, fn) ownExports[name] = fn end,
  __index = function(_, resource) return otherResources[resource] end,
})

--- Another resource, started, with exports called as exports[name]:fn(...) (the stub gets self first).
function fx.provide(resource, exportTable)
  otherResources[resource] = exportTable
  fx.resourceStates[resource] = 'started'
end

--- exports.skald:<name>(...) as called by the resource `from`.
function fx.callExport(name, from, ...)
  assert(ownExports[name], 'no export ' .. name)
  invoking = from
  local result = table.pack(ownExports[name](...))
  invoking = nil
  return table.unpack(result, 1, result.n)
end

function fx.exportNames()
  local names = {}
  for name in pairs(ownExports) do names[#names + 1] = name end
  table.sort(names)
  return names
end

-- PerformHttpRequest through curl ------------------------------------------------------------------
local tmp = os.tmpname()
local function writeFile(path, data) local f = assert(io.open(path, 'wb')); f:write(data); f:close() end
local function readFile(path) local f = io.open(path, 'rb'); if not f then return '' end; local d = f:read('a'); f:close(); return d end

--- What the test needs of a request: never the key, only whether it went in the header.
local function describe(url, data, headers, status)
  local request = {
    at = now, path = url:match('^https?://[^/]+(/[^?]*)') or url, status = status,
    keyInHeader = (headers or {})['X-API-Key'] == fx.convars.skald_api_key and fx.convars.skald_api_key ~= '',
    keyInUrl = url:find('apiKey', 1, true) ~= nil,
  }
  if (headers or {})['Content-Type'] == 'application/json' then
    local logs = json.decode(data)
    request.count = #logs
    request.sent = {}
    for i, log in ipairs(logs) do request.sent[i] = { message = log.message, timestamp = log.timestamp or false } end
  else
    request.message = (data or ''):match('name="message"\r\n\r\n([^\r]*)\r\n') or false
    request.timestamp = (data or ''):match('name="timestamp"\r\n\r\n([^\r]*)\r\n') or false
  end
  return request
end

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
  fx.requests[#fx.requests + 1] = describe(url, data, headers, status)
  -- FXServer calls back later, on the server's thread; >= 400: no headers, body only in errorData.
  SetTimeout(0, function()
    if status == 0 then cb(0, nil, {}, 'curl: no answer')
    elseif status >= 400 then cb(status, nil, {}, ('HTTP %d: %s'):format(status, body))
    else cb(status, body, { ['Content-Type'] = 'application/json' }, nil) end
  end)
end

-- Loading ------------------------------------------------------------------------------------------------
--- Loads the resource as FXServer would: the manifest's server_scripts, in order. Returns the manifest.
function fx.load(resourceDir, beforeScripts)
  local manifest = { server_scripts = {}, server_exports = {} }
  local manifestEnv = setmetatable({
    server_scripts = function(list) manifest.server_scripts = list end,
    server_exports = function(list) manifest.server_exports = list end,
  }, { __index = function() return function() end end })
  assert(loadfile(resourceDir .. '/fxmanifest.lua', 't', manifestEnv))()
  for _, file in ipairs(manifest.server_scripts) do
    dofile(resourceDir .. '/' .. file)
    -- After config.lua: the scenario's settings, as an admin's edit of config.lua would be.
    if file == 'config.lua' and beforeScripts then beforeScripts() end
  end
  fx.advance(0)
  return manifest
end

function fx.cleanup()
  os.remove(tmp); os.remove(tmp .. '.body'); os.remove(tmp .. '.headers'); os.remove(tmp .. '.out')
end

return fx
