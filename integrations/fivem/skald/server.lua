-- Skald resource, server side: built-in player logs, the export and event other resources use, the
-- flush loop, and screenshots through screenshot-basic when it runs.

local RESOURCE = GetCurrentResourceName()

local function playerName(src)
  local name = GetPlayerName(src)
  if name == nil or name == '' then return ('player %s'):format(tostring(src)) end
  return name
end

--- Metadata of a player log: the server id and the identifiers Config.Identifiers names (never the IP).
local function playerMetadata(src, extra)
  local metadata = { playerId = tonumber(src) or src }
  for _, identifier in ipairs(GetPlayerIdentifiers(src) or {}) do
    for _, prefix in ipairs(Config.Identifiers) do
      if identifier:sub(1, #prefix + 1) == prefix .. ':' then metadata[prefix] = identifier end
    end
  end
  for key, value in pairs(extra or {}) do metadata[key] = value end
  return metadata
end

local function queueLog(level, logType, message, metadata, resource)
  SkaldQueue.push(SkaldQueue.normalize(level, logType, message, metadata, resource or RESOURCE))
end

--- exports.skald:log(level, type, message, metadata): level is info, warn (or warning), error, fatal or
--- debug; metadata a table with string keys. The calling resource is sent as the log's resource.
exports('log', function(level, logType, message, metadata)
  queueLog(level, logType, message, metadata, GetInvokingResource() or RESOURCE)
end)

-- The same for server scripts that prefer events: TriggerEvent('skald:log', level, type, message, metadata).
-- Deliberately not a net event: clients cannot write logs through it.
AddEventHandler('skald:log', function(level, logType, message, metadata)
  queueLog(level, logType, message, metadata, GetInvokingResource() or RESOURCE)
end)

if Config.LogJoins then
  AddEventHandler('playerJoining', function()
    local src = source
    queueLog('info', 'Join', ('[JOIN] %s joined the server'):format(playerName(src)), playerMetadata(src))
  end)
end

if Config.LogLeaves then
  AddEventHandler('playerDropped', function(reason)
    local src = source
    queueLog('info', 'Leave', ('[LEAVE] %s left the server (%s)'):format(playerName(src), tostring(reason or 'unknown')), playerMetadata(src, { reason = reason }))
  end)
end

if Config.LogChat then
  -- The chat resource's server event: (source, author, text).
  AddEventHandler('chatMessage', function(src, author, text)
    queueLog('info', 'Chat', ('%s: %s'):format(author or playerName(src), tostring(text)), playerMetadata(src))
  end)
end

if Config.LogDeaths then
  -- baseevents' events, sent by the dying player's client (so a modified client could fake one).
  AddEventHandler('baseevents:onPlayerKilled', function(killerId, data)
    local src = source
    local weapon = type(data) == 'table' and data.weaponhash or nil
    queueLog('warning', 'Death', ('[DEATH] %s was killed by %s'):format(playerName(src), playerName(killerId)), playerMetadata(src, { killerId = killerId, weapon = weapon }))
  end)
  AddEventHandler('baseevents:onPlayerDied', function(killerType)
    local src = source
    queueLog('warning', 'Death', ('[DEATH] %s died'):format(playerName(src)), playerMetadata(src, { killerType = killerType }))
  end)
end

CreateThread(function()
  while true do
    Wait(Config.FlushIntervalMs)
    SkaldQueue.flush()
  end
end)

-- Screenshots: exports.skald:screenshot(playerId, message, level, type, metadata) asks screenshot-basic
-- for the player's screen and uploads it to Skald's /api/photologs (multipart, field `photo`).
exports('screenshot', function(playerId, message, level, logType, metadata)
  if GetResourceState('screenshot-basic') ~= 'started' then
    print('^3[skald]^7 screenshot-basic is not running; no screenshot taken')
    return false
  end
  local invoking = GetInvokingResource() or RESOURCE
  exports['screenshot-basic']:requestClientScreenshot(playerId, { encoding = 'jpg', quality = 0.85 }, function(err, dataUri)
    if err then
      print(('^3[skald]^7 screenshot of player %s failed: %s'):format(tostring(playerId), tostring(err)))
      return
    end
    SkaldPhotos.upload(dataUri, SkaldQueue.normalize(level, logType or 'Screenshot', message, playerMetadata(playerId, metadata), invoking))
  end)
  return true
end)
