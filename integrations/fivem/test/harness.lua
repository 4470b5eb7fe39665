-- Runs the Skald FiveM resource under plain lua5.4 in a stub FXServer (fxserver.lua: FiveM's natives,
-- FXServer's net-safety rule for client events, PerformHttpRequest as real HTTP through curl) and plays
-- one scenario against a real Skald.
--
--   SKALD_URL=http://127.0.0.1:8080 SKALD_API_KEY=... [SKALD_SEND_TIMESTAMP=0] lua5.4 harness.lua <scenario>
--
-- Prints one line `RESULT <json>` with what happened (requests, console lines); never the API key.
local here = arg[0]:match('^(.*)/[^/]*$') or '.'
local realPrint = print
json = dofile(here .. '/json.lua')
local fx = dofile(here .. '/fxserver.lua')

fx.resourceStates.baseevents = 'started'
local manifest = fx.load(here .. '/../skald', function()
  if os.getenv('SKALD_SEND_TIMESTAMP') == '0' then Config.SendTimestamp = false end
end)

local emitLocal, emitFromServer, emitFromClient, callExport, advance = fx.emitLocal, fx.emitFromServer, fx.emitFromClient, fx.callExport, fx.advance

-- Players: every identifier kind FiveM gives, ip included (it must not be sent unless skald_log_ip).
local ANN = { name = 'Ann Harness', identifiers = { 'license:abc123', 'license2:abc999', 'discord:111', 'steam:110000100000001', 'fivem:4242', 'xbl:2535', 'live:9876', 'ip:10.0.0.9' } }
local BOB = { name = 'Bob Harness', identifiers = { 'license:def456', 'discord:222', 'ip:10.0.0.10' } }
local CAT = { name = 'Cat Harness', identifiers = { 'license:ghi789' } }

-- A real 8x8 PNG, as a capture resource hands it over.
local PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGM4ISeHFTEMLQkAkL9BAbKfPiIAAAAASUVORK5CYII='

local scenarios = {}
local result = {}

local function flushInterval()
  advance(Config.FlushIntervalMs + 100)
end

--- Join, chat, deaths (from the clients, as baseevents sends them) and leave; the export in both argument
--- orders, the event, Fivemanage's exports; then a burst past the batch size and a screenshot.
function scenarios.players()
  fx.players[1], fx.players[2] = ANN, BOB
  emitFromServer('playerJoining', 1, '1')
  emitFromServer('playerJoining', 2, '2')
  emitLocal('chatMessage', 1, 'Ann Harness', 'hello from the harness')
  emitFromClient('baseevents:onPlayerKilled', 1, 2, { killertype = 4, weaponhash = 453432689, killerinveh = true, killervehname = 'ADDER', killervehseat = -1, killerpos = { 101.5, -20.25, 30.125 } })
  emitFromClient('baseevents:onPlayerDied', 2, 0, { 1.0, 2.0, 3.0 })
  -- Killed by something that is no player (an animal: killer -1), the weapon hash signed as the game gives it.
  emitFromClient('baseevents:onPlayerKilled', 2, -1, { killertype = 28, weaponhash = -100946242, killerinveh = false, killerpos = { 5, 6, 7 } })
  emitFromServer('playerDropped', 1, 'Exiting')
  callExport('log', 'harness-bank', 'error', 'Bank desync on account 12', { account = 12 }, 'Economy')
  callExport('log', 'harness-legacy', 'warn', 'Legacy', 'first-release argument order', { v = 1 })
  emitLocal('skald:log', 'debug', 'sent through the skald:log event', nil, 'Custom')
  callExport('LogMessage', 'harness-fm', 'info', 'fmsdk LogMessage', { playerSource = 2 })
  callExport('Log', 'harness-fm', 'bank', 'warn', 'fmsdk Log to the bank dataset', { amount = 5 })
  callExport('Info', 'harness-fm', 'default', 'fmsdk Info', {})
  callExport('Warn', 'harness-fm', 'anticheat', 'fmsdk Warn', { targetSource = 2 })
  callExport('Error', 'harness-fm', 'default', 'fmsdk Error')
  result.beforeFlush = #fx.requests
  flushInterval()
  result.afterFirstFlush = #fx.requests
  for i = 1, 250 do callExport('log', 'harness-burst', 'info', ('burst %d'):format(i), nil, 'Burst') end
  advance(Config.FlushIntervalMs * 3)
  fx.provide('screenshot-basic', {
    requestClientScreenshot = function(_self, player, options, cb)
      result.screenshotOptions = options
      result.screenshotPlayer = player
      cb(false, PNG)
    end,
  })
  result.screenshotStarted = callExport('screenshot', 'harness-admin', 2, 'Screenshot of Bob', { reason = 'report' })
  advance(100)
  result.queued = SkaldQueue.size()
  result.manifestExports = manifest.server_exports
  result.registeredExports = fx.exportNames()
end

--- FXServer's net-safety rule: client events this resource did not RegisterNetEvent are dropped with the
--- server's warning (skald:log, txAdmin's events and chatMessage cannot be forged by a client); deaths
--- are taken, at most Config.DeathsPerMinute per player a minute. Without baseevents started, the
--- console says why no deaths come.
function scenarios.netsafety()
  fx.resourceStates.baseevents = 'stopped'
  fx.players[1], fx.players[3] = ANN, CAT
  emitFromClient('skald:log', 1, 'fatal', 'forged by a client', nil, 'Forged')
  emitFromClient('txAdmin:events:playerBanned', 1, { author = 'me', targetNetId = 3, targetName = 'Cat Harness', reason = 'forged' })
  emitFromClient('chatMessage', 1, 1, 'Ann Harness', 'forged chat')
  result.queuedAfterForgeries = SkaldQueue.size()
  for _ = 1, Config.DeathsPerMinute + 5 do emitFromClient('baseevents:onPlayerDied', 3, -1, { 0, 0, 0 }) end
  result.queuedAfterFlood = SkaldQueue.size()
  advance(61000)
  emitFromClient('baseevents:onPlayerKilled', 3, 1, { weaponhash = 2725352035, killerpos = { 1, 2, 3 } })
  result.queuedAfterAMinute = SkaldQueue.size()
  flushInterval()
  result.queued = SkaldQueue.size()
end

--- txAdmin's events as its monitor resource raises them (TriggerEvent on the server).
function scenarios.txadmin()
  fx.players[1], fx.players[2] = ANN, BOB
  local function tx(name, data) emitLocal('txAdmin:events:' .. name, data) end
  tx('playerBanned', { author = 'AdminAl', reason = 'cheating', actionId = 'BXXX-1234', expiration = 1900000000, durationInput = '2 days', durationTranslated = '2 days', targetNetId = 1, targetIds = { 'license:abc123', 'discord:111', 'ip:10.0.0.9' }, targetHwids = { '2:abcd' }, targetName = 'Ann Harness', kickMessage = 'You are banned' })
  tx('playerBanned', { author = 'AdminAl', reason = 'alt account', actionId = 'BYYY-5678', expiration = false, durationInput = 'permanent', targetIds = { 'license:offline1', 'steam:110000100000099' }, targetHwids = {}, targetName = 'Offline Olly', kickMessage = 'You are banned' })
  tx('playerWarned', { author = 'AdminAl', reason = 'RDM', actionId = 'WAAA-0001', targetNetId = 2, targetIds = { 'license:def456' }, targetName = 'Bob Harness' })
  tx('playerKicked', { target = 2, author = 'AdminAl', reason = 'AFK', dropMessage = 'Kicked: AFK' })
  tx('playerKicked', { target = -1, author = 'txAdmin', reason = 'restart', dropMessage = 'Kicked: restart' })
  tx('playerHealed', { target = 2, author = 'AdminAl' })
  tx('playerHealed', { target = -1, author = 'AdminAl' })
  tx('playerDirectMessage', { target = 1, author = 'AdminAl', message = 'please stop' })
  tx('whitelistPlayer', { action = 'added', license = 'license:new1', playerName = 'Newbie Ned', adminName = 'AdminAl' })
  tx('whitelistPreApproval', { action = 'added', identifier = 'discord:333', playerName = 'Pre Pat', adminName = 'AdminAl' })
  tx('whitelistRequest', { action = 'requested', playerName = 'Req Rae', requestId = 'R1234', license = 'license:req1' })
  tx('whitelistRequest', { action = 'deniedAll', adminName = 'AdminAl' })
  tx('actionRevoked', { actionId = 'BYYY-5678', actionType = 'ban', actionReason = 'alt account', actionAuthor = 'AdminAl', playerName = 'Offline Olly', playerIds = { 'license:offline1' }, playerHwids = {}, revokedBy = 'AdminBea' })
  tx('announcement', { author = 'AdminAl', message = 'Server event at 8' })
  tx('scheduledRestart', { secondsRemaining = 1800, translatedMessage = 'The server restarts in 30 minutes' })
  tx('scheduledRestartSkipped', { secondsRemaining = 600, temporary = false, author = 'AdminAl' })
  result.requestsBeforeShutdown = #fx.requests
  tx('serverShuttingDown', { delay = 5000, author = 'AdminAl', message = 'maintenance' })
  result.requestsRightAfterShutdown = #fx.requests
  advance(100)
  flushInterval()
  result.queued = SkaldQueue.size()
end

--- Screenshots through screenshot-basic, through screencapture (preferred when both run), with neither,
--- of a player who is not connected, and in the first release's argument order.
function scenarios.screenshots()
  fx.players[2] = BOB
  local calls = { basic = 0, capture = 0 }
  result.none = callExport('screenshot', 'harness-admin', 2, 'no capture resource', { reason = 'none' })
  fx.provide('screenshot-basic', {
    requestClientScreenshot = function(_self, player, options, cb)
      calls.basic = calls.basic + 1
      result.basicPlayer, result.basicOptions = player, options
      cb(false, PNG)
    end,
  })
  result.basic = callExport('screenshot', 'harness-admin', 2, 'Screenshot through screenshot-basic', { reason = 'report' })
  result.legacy = callExport('screenshot', 'harness-admin', 2, 'Legacy screenshot call', 'warn', 'Evidence', { case = 7 })
  fx.provide('screencapture', {
    serverCapture = function(_self, player, options, cb, dataType)
      calls.capture = calls.capture + 1
      result.capturePlayer, result.captureOptions, result.captureDataType = player, options, dataType
      cb(PNG)
    end,
  })
  result.capture = callExport('screenshot', 'harness-admin', 2, 'Screenshot through screencapture', { reason = 'report', playerSource = 2 })
  result.offline = callExport('screenshot', 'harness-admin', 99, 'nobody there', nil)
  advance(100)
  result.calls = calls
end

--- With `set skald_log_ip true`, ip identifiers are sent too.
function scenarios.ip()
  fx.convars.skald_log_ip = 'true'
  fx.players[1] = ANN
  emitFromServer('playerJoining', 1, '1')
  flushInterval()
  result.queued = SkaldQueue.size()
end

--- The server's quota is spent: the batch is kept and sent again only after the body's retryAfter, with
--- the times the logs were made, not the time they are sent again.
function scenarios.retry()
  for i = 1, 3 do callExport('log', 'harness-retry', 'info', ('kept %d'):format(i), nil, 'Retry') end
  flushInterval()
  result.firstStatus = fx.requests[1] and fx.requests[1].status
  local line = fx.console[#fx.console] or ''
  result.announcedDelay = tonumber(line:match('retrying in (%d+) s'))
  local delayMs = (result.announcedDelay or 0) * 1000
  advance(delayMs - 1000)
  result.requestsBeforeDelay = #fx.requests
  advance(Config.FlushIntervalMs + 1000)
  result.requestsAfterDelay = #fx.requests
  result.retriedCount = fx.requests[#fx.requests] and fx.requests[#fx.requests].count
  result.queued = SkaldQueue.size()
end

--- Skald unreachable for a while (a closed port), then back: nothing is lost; a full queue drops the
--- oldest and says so.
function scenarios.outage()
  local realUrl = fx.convars.skald_url
  fx.convars.skald_url = os.getenv('SKALD_DOWN_URL')
  for i = 1, 5 do callExport('log', 'harness-outage', 'warn', ('during outage %d'):format(i), nil, 'Outage') end
  flushInterval()
  advance(10000)
  result.failedAttempts = #fx.requests
  fx.convars.skald_url = realUrl
  advance(Config.MaxBackoffSeconds * 1000 + Config.FlushIntervalMs)
  result.queuedAfterRecovery = SkaldQueue.size()
  result.lastStatus = fx.requests[#fx.requests].status
  -- A full queue: with no URL nothing is sent, so 15 logs into a queue of 10 drop the 5 oldest.
  fx.convars.skald_url = ''
  Config.MaxQueue = 10
  for i = 1, 15 do callExport('log', 'harness-outage', 'info', ('overflow %d'):format(i), nil, 'Overflow') end
  flushInterval()
  result.queuedAfterOverflow = SkaldQueue.size()
end

--- A Skald that does not know `timestamp` refuses it as a field: the batch goes again at once without
--- times, and later logs carry none.
function scenarios.oldSkaldLogs()
  for i = 1, 3 do callExport('log', 'harness-old', 'info', ('before %d'):format(i)) end
  flushInterval()
  callExport('log', 'harness-old', 'info', 'after the refusal')
  flushInterval()
  result.queued = SkaldQueue.size()
end

--- The same for a photo log: it is uploaded again without its time.
function scenarios.oldSkaldPhoto()
  fx.players[2] = BOB
  fx.provide('screenshot-basic', { requestClientScreenshot = function(_self, _player, _options, cb) cb(false, PNG) end })
  result.started = callExport('screenshot', 'harness-old', 2, 'photo for an older Skald', nil)
  advance(100)
end

--- A Skald that refuses one log's time as a bad value: that batch goes again without times, later logs
--- keep theirs.
function scenarios.badTime()
  callExport('log', 'harness-time', 'info', 'a bad time')
  callExport('log', 'harness-time', 'info', 'a good time')
  flushInterval()
  callExport('log', 'harness-time', 'info', 'later')
  flushInterval()
  result.queued = SkaldQueue.size()
end

local name = arg[1] or 'players'
assert(scenarios[name], 'unknown scenario ' .. name)
scenarios[name]()
result.requests = fx.requests
result.console = fx.console
fx.cleanup()
realPrint('RESULT ' .. json.encode(result))
