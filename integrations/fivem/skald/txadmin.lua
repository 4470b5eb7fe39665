-- txAdmin's server events (txAdmin's docs/events.md): its monitor resource raises
-- TriggerEvent('txAdmin:events:<name>', data) on the server, so they need no RegisterNetEvent, and none is
-- made: a client must not be able to fake a ban. Each log names the admin as `admin = { username }` and the
-- player acted on as `target = { name, serverId, identifiers }`; `event` is txAdmin's event name. The
-- admin's key is `username`, not `name`: Skald's players view gives a name found in an object without
-- identifiers to the log's only player, which would make the admin's name one of the target's names.

if not Config.LogTxAdmin then return end

local WARNING = 'warning'

local function text(value)
  if value == nil or value == false then return nil end
  local s = tostring(value)
  if s == '' then return nil end
  return s
end

local function adminOf(username)
  return { username = text(username) or 'txAdmin' }
end

--- The player an event acts on: by server id (nil or -1 when offline or everyone), name and identifiers.
local function targetOf(serverId, name, identifiers)
  local id = tonumber(serverId)
  if id == -1 then id = nil end
  return SkaldIdentity.describe(text(name), id, identifiers)
end

local function nameOf(target)
  return SkaldIdentity.nameOf(target, 'a player')
end

--- "30 minutes", "90 seconds": a txAdmin delay in seconds as a person says it.
local function duration(seconds)
  seconds = tonumber(seconds)
  if not seconds then return 'an unknown time' end
  if seconds >= 60 and seconds % 60 == 0 then
    local minutes = seconds // 60
    return ('%d minute%s'):format(minutes, minutes == 1 and '' or 's')
  end
  return ('%d second%s'):format(seconds, seconds == 1 and '' or 's')
end

local function on(name, handler)
  AddEventHandler('txAdmin:events:' .. name, function(data)
    local level, logType, message, metadata = handler(type(data) == 'table' and data or {})
    metadata.event = 'txAdmin:events:' .. name
    SkaldQueue.log(level, logType, message, metadata)
  end)
end

on('playerBanned', function(d)
  local target = targetOf(d.targetNetId, d.targetName, d.targetIds)
  local permanent = d.expiration == false or d.expiration == nil
  local expiresAt = tonumber(d.expiration) and os.date('!%Y-%m-%dT%H:%M:%SZ', math.floor(tonumber(d.expiration))) or nil
  local length = permanent and 'permanent' or (text(d.durationTranslated) or text(d.durationInput) or 'temporary')
  local admin = adminOf(d.author)
  return WARNING, 'Ban', ('[BAN] %s banned %s (%s): %s'):format(admin.username, nameOf(target), length, text(d.reason) or 'no reason'), {
    admin = admin, target = target, reason = text(d.reason), actionId = text(d.actionId),
    duration = length, permanent = permanent, expiresAt = expiresAt,
  }
end)

on('playerWarned', function(d)
  local target = targetOf(d.targetNetId, d.targetName, d.targetIds)
  local admin = adminOf(d.author)
  return WARNING, 'AdminWarning', ('[WARN] %s warned %s: %s'):format(admin.username, nameOf(target), text(d.reason) or 'no reason'), {
    admin = admin, target = target, reason = text(d.reason), actionId = text(d.actionId),
  }
end)

on('playerKicked', function(d)
  local admin = adminOf(d.author)
  local everyone = tonumber(d.target) == -1
  local target = not everyone and targetOf(d.target) or nil
  local whom = everyone and 'every player' or nameOf(target)
  return WARNING, 'Kick', ('[KICK] %s kicked %s: %s'):format(admin.username, whom, text(d.reason) or 'no reason'), {
    admin = admin, target = target, everyone = everyone or nil, reason = text(d.reason),
  }
end)

on('playerHealed', function(d)
  local admin = adminOf(d.author)
  local everyone = tonumber(d.target) == -1
  local target = not everyone and targetOf(d.target) or nil
  return 'info', 'Heal', ('[HEAL] %s healed %s'):format(admin.username, everyone and 'every player' or nameOf(target)), {
    admin = admin, target = target, everyone = everyone or nil,
  }
end)

on('playerDirectMessage', function(d)
  local admin = adminOf(d.author)
  local target = targetOf(d.target)
  return 'info', 'DirectMessage', ('[DM] %s to %s: %s'):format(admin.username, nameOf(target), text(d.message) or ''), {
    admin = admin, target = target, text = text(d.message),
  }
end)

on('whitelistPlayer', function(d)
  local admin = adminOf(d.adminName)
  local target = targetOf(nil, d.playerName, { d.license })
  local added = d.action == 'added'
  local message = added and ('[WHITELIST] %s whitelisted %s') or ('[WHITELIST] %s removed %s from the whitelist')
  return 'info', 'Whitelist', message:format(admin.username, nameOf(target)), { admin = admin, target = target, action = text(d.action) }
end)

on('whitelistPreApproval', function(d)
  local admin = adminOf(d.adminName)
  local target = targetOf(nil, d.playerName, { d.identifier })
  local shown = (type(d.identifier) == 'string' and SkaldIdentity.allowed(d.identifier)) and d.identifier or 'an identifier'
  local message
  if d.action == 'added' then
    message = ('[WHITELIST] %s pre-approved %s%s'):format(admin.username, shown, target.name and (' (' .. target.name .. ')') or '')
  else
    message = ('[WHITELIST] %s removed the pre-approval of %s'):format(admin.username, shown)
  end
  return 'info', 'Whitelist', message, { admin = admin, target = target, action = text(d.action) }
end)

on('whitelistRequest', function(d)
  local admin = d.adminName and adminOf(d.adminName) or nil
  local adminName = admin and admin.username or 'txAdmin'
  local target = d.action ~= 'deniedAll' and targetOf(nil, d.playerName, { d.license }) or nil
  local request = text(d.requestId) and (' (' .. d.requestId .. ')') or ''
  local message
  if d.action == 'requested' then
    message = ('[WHITELIST] %s asked to be whitelisted%s'):format(nameOf(target), request)
  elseif d.action == 'deniedAll' then
    message = ('[WHITELIST] %s denied every whitelist request'):format(adminName)
  else
    message = ('[WHITELIST] %s %s the whitelist request of %s%s'):format(adminName, text(d.action) or 'answered', nameOf(target), request)
  end
  return 'info', 'Whitelist', message, { admin = admin, target = target, action = text(d.action), requestId = text(d.requestId) }
end)

on('actionRevoked', function(d)
  local admin = adminOf(d.revokedBy)
  local target = targetOf(nil, d.playerName, d.playerIds)
  local kind = text(d.actionType) or 'action'
  return 'info', 'Revoke', ('[REVOKE] %s revoked the %s %s of %s'):format(admin.username, kind, text(d.actionId) or '', nameOf(target)), {
    admin = admin, target = target, actionId = text(d.actionId), actionType = kind,
    reason = text(d.actionReason), issuedBy = text(d.actionAuthor),
  }
end)

on('announcement', function(d)
  local admin = adminOf(d.author)
  return 'info', 'Announcement', ('[ANNOUNCEMENT] %s: %s'):format(admin.username, text(d.message) or ''), { admin = admin, text = text(d.message) }
end)

on('scheduledRestart', function(d)
  return 'info', 'Restart', ('[RESTART] scheduled restart in %s'):format(duration(d.secondsRemaining)), {
    secondsRemaining = tonumber(d.secondsRemaining), text = text(d.translatedMessage),
  }
end)

on('scheduledRestartSkipped', function(d)
  local admin = adminOf(d.author)
  return 'info', 'Restart', ('[RESTART] %s skipped the scheduled restart due in %s'):format(admin.username, duration(d.secondsRemaining)), {
    admin = admin, secondsRemaining = tonumber(d.secondsRemaining), temporary = d.temporary == true,
  }
end)

AddEventHandler('txAdmin:events:serverShuttingDown', function(d)
  d = type(d) == 'table' and d or {}
  local admin = adminOf(d.author)
  local delayMs = tonumber(d.delay)
  local within = delayMs and (' in ' .. duration(math.floor(delayMs / 1000))) or ''
  local note = text(d.message) and (': ' .. d.message) or ''
  SkaldQueue.log(WARNING, 'Shutdown', ('[SHUTDOWN] %s shuts the server down%s%s'):format(admin.username, within, note), {
    event = 'txAdmin:events:serverShuttingDown', admin = admin, delayMs = delayMs, text = text(d.message),
  })
  -- The process ends after `delay` ms: send what waits now rather than at the next interval.
  SkaldQueue.flush()
end)
