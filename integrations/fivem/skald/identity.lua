-- Who a log is about. Every player in a log is one object { name, serverId, identifiers = { 'kind:value', ... } }
-- under its own key (player, victim, killer, target): Skald's players view links the identifiers found
-- together in one object to one player, and keeps players in separate objects apart.
-- The ip: identifier is sent only when the convar skald_log_ip is true.

SkaldIdentity = {}

local TRUE_WORDS = { ['true'] = true, ['1'] = true, yes = true, on = true }

local function ipAllowed()
  return TRUE_WORDS[GetConvar('skald_log_ip', 'false'):lower()] == true
end

local function allowedKinds()
  local kinds = {}
  for _, kind in ipairs(Config.Identifiers or {}) do kinds[kind] = true end
  kinds.ip = ipAllowed() or nil
  return kinds
end

--- The identifiers of `list` whose kind is sent (Config.Identifiers, ip only by convar), each once, in order.
function SkaldIdentity.identifiers(list)
  local kinds, seen, out = allowedKinds(), {}, {}
  for _, identifier in ipairs(type(list) == 'table' and list or {}) do
    if type(identifier) == 'string' then
      local kind = identifier:match('^([%w_]+):.+$')
      if kind and kinds[kind] and not seen[identifier] then
        seen[identifier] = true
        out[#out + 1] = identifier
      end
    end
  end
  return out
end

--- Whether an identifier may be shown (in a message, for instance): the same rule as the list.
function SkaldIdentity.allowed(identifier)
  return #SkaldIdentity.identifiers({ identifier }) == 1
end

--- A connected player's object, or nil when `src` is no connected player (0 is the console).
function SkaldIdentity.player(src)
  local id = tonumber(src)
  if not id or id <= 0 then return nil end
  local name = GetPlayerName(id)
  if name == nil or name == '' then return nil end
  return { name = name, serverId = id, identifiers = SkaldIdentity.identifiers(GetPlayerIdentifiers(id)) }
end

--- A player known from an event's data (maybe offline): its name and identifiers, merged with the
--- connected player's when `serverId` is one.
function SkaldIdentity.describe(name, serverId, identifiers)
  local online = SkaldIdentity.player(serverId)
  local merged = SkaldIdentity.identifiers(identifiers)
  if online then
    local all = {}
    for _, identifier in ipairs(online.identifiers) do all[#all + 1] = identifier end
    for _, identifier in ipairs(merged) do all[#all + 1] = identifier end
    online.identifiers = SkaldIdentity.identifiers(all)
    return online
  end
  local described = { identifiers = merged }
  if type(name) == 'string' and name ~= '' then described.name = name end
  if tonumber(serverId) and tonumber(serverId) > 0 then described.serverId = tonumber(serverId) end
  return described
end

--- The name a message shows for a player object (or `fallback`).
function SkaldIdentity.nameOf(player, fallback)
  if type(player) == 'table' and type(player.name) == 'string' and player.name ~= '' then return player.name end
  return fallback or 'someone'
end
