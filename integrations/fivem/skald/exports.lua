-- What other server resources call. The calling resource's name is sent as each log's resource.
--
--   exports.skald:log(level, message, metadata, type)
--   exports.skald:screenshot(playerId, message, metadata)
--   TriggerEvent('skald:log', level, message, metadata, type)     -- the same as the export, server side only
--
-- and, so a server leaving Fivemanage only renames the resource, the log exports of Fivemanage's fmsdk:
--   LogMessage(level, message, metadata)            -> type General
--   Log(datasetId, level, message, metadata)        -> type datasetId ('default': General)
--   Info / Warn / Error(datasetId, message, metadata)
--
-- In any of them, metadata.playerSource and metadata.targetSource (fmsdk's keys, a server id) become the
-- player objects `player` and `target` with name, server id and identifiers.

local RESOURCE = GetCurrentResourceName()

--- A copy of the caller's metadata with fmsdk's playerSource / targetSource turned into player objects.
local function withPlayers(metadata)
  if type(metadata) ~= 'table' then return nil end
  local out = {}
  for key, value in pairs(metadata) do out[key] = value end
  for key, as in pairs({ playerSource = 'player', targetSource = 'target' }) do
    local src = tonumber(out[key])
    if src then
      out[as] = SkaldIdentity.player(src) or { serverId = src, identifiers = {} }
      out[key] = nil
    end
  end
  return out
end

local function caller()
  return GetInvokingResource() or RESOURCE
end

local function log(level, logType, message, metadata)
  SkaldQueue.log(level, logType, message, withPlayers(metadata), caller())
  return true
end

--- log(level, message, metadata, type); the first release's order (level, type, message, metadata) is
--- still understood: its third argument is the message, a string, where metadata is a table.
local function skaldLog(level, message, metadata, logType)
  if type(metadata) == 'string' then
    return log(level, message, metadata, logType)
  end
  return log(level, logType, message, metadata)
end

exports('log', skaldLog)

-- Deliberately not a net event: clients cannot write logs through it.
AddEventHandler('skald:log', skaldLog)

-- Fivemanage fmsdk's log exports, same arguments.
local function datasetType(datasetId)
  if type(datasetId) ~= 'string' or datasetId == '' or datasetId == 'default' then return nil end
  return datasetId
end

exports('LogMessage', function(level, message, metadata) return log(level, nil, message, metadata) end)
exports('Log', function(datasetId, level, message, metadata) return log(level, datasetType(datasetId), message, metadata) end)
exports('Info', function(datasetId, message, metadata) return log('info', datasetType(datasetId), message, metadata) end)
exports('Warn', function(datasetId, message, metadata) return log('warn', datasetType(datasetId), message, metadata) end)
exports('Error', function(datasetId, message, metadata) return log('error', datasetType(datasetId), message, metadata) end)

-- Screenshots -------------------------------------------------------------------------------------------
-- screencapture (serverCapture) when it runs, else screenshot-basic (requestClientScreenshot); the player's
-- game takes the picture and hands the server a data URI, uploaded to Skald as a photo log.

local function onCaptured(playerId, photoLog)
  return function(dataUri)
    if type(dataUri) ~= 'string' or dataUri == '' then
      SkaldQueue.say(('the screenshot of player %s came back empty; not sent'):format(tostring(playerId)))
      return
    end
    SkaldPhotos.upload(dataUri, photoLog)
  end
end

--- screenshot(playerId, message, metadata): true when a screenshot was asked for. The first release's
--- screenshot(playerId, message, level, type, metadata) is still understood.
exports('screenshot', function(playerId, message, metadata, ...)
  local level, logType = 'info', 'Screenshot'
  if type(metadata) == 'string' then
    local rest = { ... }
    level, logType, metadata = metadata, rest[1] or logType, rest[2]
  end
  local player = SkaldIdentity.player(playerId)
  if not player then
    SkaldQueue.say(('no screenshot: player %s is not connected'):format(tostring(playerId)))
    return false
  end
  local fields = withPlayers(metadata) or {}
  fields.player = fields.player or player
  local photoLog = SkaldQueue.normalize(level, logType, message, fields, caller())
  local captured = onCaptured(player.serverId, photoLog)
  if GetResourceState('screencapture') == 'started' then
    exports['screencapture']:serverCapture(player.serverId, { encoding = 'jpg' }, captured, 'base64')
    return true
  end
  if GetResourceState('screenshot-basic') == 'started' then
    exports['screenshot-basic']:requestClientScreenshot(player.serverId, { encoding = 'jpg', quality = 0.85 }, function(err, dataUri)
      if err then
        SkaldQueue.say(('the screenshot of player %s failed: %s'):format(tostring(player.serverId), tostring(err)))
        return
      end
      captured(dataUri)
    end)
    return true
  end
  SkaldQueue.say('no screenshot: neither screenshot-basic nor screencapture is started (ensure one of them in server.cfg)')
  return false
end)
