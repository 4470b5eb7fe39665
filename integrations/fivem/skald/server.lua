-- Skald resource, server side: the built-in player logs (join, leave, chat, death) and the flush loop.
-- txadmin.lua logs txAdmin's events; exports.lua holds what other resources call.
--
-- Where an event comes from decides whether FXServer hands it to this resource:
--   playerJoining, playerDropped: the server itself (source 'internal-net:<id>'): always delivered;
--   chatMessage: the chat resource's TriggerEvent on the server: always delivered;
--   baseevents:onPlayerDied and baseevents:onPlayerKilled: sent by the dying player's CLIENT. FXServer
--     drops a client event ("event ... was not safe for net") unless the receiving resource declared it
--     with RegisterNetEvent; every resource has its own Lua state, so baseevents' declaration does not
--     cover this one.

-- Spec: deaths at level 'warning' (Skald stores it as warn); joins, leaves and chat at info.
local WARNING = 'warning'

--- The player object of a log, or at least the server id when the player is gone already.
local function playerOf(src)
  return SkaldIdentity.player(src) or { serverId = tonumber(src) or src, identifiers = {} }
end

local function nameOf(player)
  return SkaldIdentity.nameOf(player, ('player %s'):format(tostring(player.serverId)))
end

if Config.LogJoins then
  AddEventHandler('playerJoining', function()
    local player = playerOf(source)
    SkaldQueue.log('info', 'Join', ('[JOIN] %s joined the server'):format(nameOf(player)), { player = player })
  end)
end

if Config.LogLeaves then
  AddEventHandler('playerDropped', function(reason)
    local player = playerOf(source)
    local why = reason ~= nil and tostring(reason) or 'unknown'
    SkaldQueue.log('info', 'Leave', ('[LEAVE] %s left the server (%s)'):format(nameOf(player), why), { player = player, reason = why })
  end)
end

if Config.LogChat then
  -- The chat resource's server event: (source, author, text); source 0 is the console (`say`).
  AddEventHandler('chatMessage', function(src, author, text)
    local player = SkaldIdentity.player(src)
    local name = (type(author) == 'string' and author ~= '') and author or SkaldIdentity.nameOf(player, 'console')
    SkaldQueue.log('info', 'Chat', ('%s: %s'):format(name, tostring(text)), player and { player = player } or nil)
  end)
end

-- Deaths ------------------------------------------------------------------------------------------------
-- Everything in these events comes from a player's game: numbers are checked, text is clipped, and a
-- player's deaths are counted so a modified client cannot flood the queue.

local function isFinite(n)
  return type(n) == 'number' and n == n and n ~= math.huge and n ~= -math.huge
end

local function integer(value)
  local n = tonumber(value)
  if not isFinite(n) then return nil end
  return math.tointeger(n) or math.floor(n)
end

local function shortText(value)
  if type(value) ~= 'string' or value == '' then return nil end
  return value:sub(1, 64)
end

--- { x, y, z } rounded to centimetres, from baseevents' coordinate array.
local function position(coords)
  if type(coords) ~= 'table' then return nil end
  local x, y, z = tonumber(coords.x or coords[1]), tonumber(coords.y or coords[2]), tonumber(coords.z or coords[3])
  if not (isFinite(x) and isFinite(y) and isFinite(z)) then return nil end
  local function round(n) return math.floor(n * 100 + 0.5) / 100 end
  return { x = round(x), y = round(y), z = round(z) }
end

local deathWindows = {} -- [server id] = { started = GetGameTimer(), count = n, warned = bool }

local function deathAllowed(victimId)
  local now = GetGameTimer()
  local window = deathWindows[victimId]
  if not window or now - window.started >= 60000 then
    window = { started = now, count = 0 }
    deathWindows[victimId] = window
  end
  window.count = window.count + 1
  if window.count <= Config.DeathsPerMinute then return true end
  if not window.warned then
    window.warned = true
    SkaldQueue.say(('player %s reported more than %d deaths in a minute; the rest of this minute\'s are not logged'):format(tostring(victimId), Config.DeathsPerMinute))
  end
  return false
end

AddEventHandler('playerDropped', function()
  deathWindows[tonumber(source) or source] = nil
end)

--- baseevents:onPlayerKilled (killerId, data): killed by something; killerId is the killer's server id
--- when it is a player, else -1 (an NPC, an animal, a vehicle without a player driving).
local function onPlayerKilled(killerId, data)
  local victimId = tonumber(source)
  if not victimId or not deathAllowed(victimId) then return end
  data = type(data) == 'table' and data or {}
  local victim = playerOf(victimId)
  local killerNumber = integer(killerId)
  local killer = killerNumber and killerNumber > 0 and killerNumber ~= victimId and playerOf(killerNumber) or nil
  local weaponHash = integer(data.weaponhash)
  local weapon = SkaldWeapons.nameOf(weaponHash)
  local metadata = {
    victim = victim,
    killer = killer,
    cause = killer and 'player' or 'other',
    weapon = weapon,
    weaponHash = weaponHash,
    killerType = integer(data.killertype),
    position = position(data.killerpos),
  }
  if data.killerinveh == true then
    metadata.killerVehicle = { model = shortText(data.killervehname), seat = integer(data.killervehseat) }
  end
  local by = killer and (' by ' .. nameOf(killer)) or ''
  local with = weapon and (' (' .. weapon .. ')') or ''
  SkaldQueue.log(WARNING, 'Death', ('[DEATH] %s was killed%s%s'):format(nameOf(victim), by, with), metadata)
end

--- baseevents:onPlayerDied (killerType, coords): died with no killer (a fall, drowning, fire, suicide).
local function onPlayerDied(killerType, coords)
  local victimId = tonumber(source)
  if not victimId or not deathAllowed(victimId) then return end
  local victim = playerOf(victimId)
  SkaldQueue.log(WARNING, 'Death', ('[DEATH] %s died'):format(nameOf(victim)), {
    victim = victim,
    cause = 'none',
    killerType = integer(killerType),
    position = position(coords),
  })
end

if Config.LogDeaths then
  RegisterNetEvent('baseevents:onPlayerKilled')
  AddEventHandler('baseevents:onPlayerKilled', onPlayerKilled)
  RegisterNetEvent('baseevents:onPlayerDied')
  AddEventHandler('baseevents:onPlayerDied', onPlayerDied)
  -- Deaths only exist where baseevents runs; say so rather than log none without a word.
  SetTimeout(10000, function()
    if GetResourceState('baseevents') ~= 'started' then
      SkaldQueue.say('deaths are reported by the baseevents resource, which is not started: add `ensure baseevents` to server.cfg')
    end
  end)
end

-- Sending -----------------------------------------------------------------------------------------------

CreateThread(function()
  while true do
    Wait(Config.FlushIntervalMs)
    SkaldQueue.flush()
  end
end)

-- A stopping resource sends what waits, without waiting for the next interval.
AddEventHandler('onResourceStop', function(name)
  if name == GetCurrentResourceName() then SkaldQueue.flush() end
end)
