-- Skald: sends this server's logs (joins, leaves, chat, deaths, txAdmin actions and whatever other
-- resources log) to Skald.
-- Install: copy this folder to resources/skald, then in server.cfg:
--   set skald_url "https://skald.example.com"
--   set skald_api_key "<your server's API key>"
--   ensure baseevents
--   ensure skald
fx_version 'cerulean'
game 'gta5'
lua54 'yes'

name 'skald'
description 'Skald log collection: join, leave, chat, death and txAdmin logs plus exports for other resources'
version '1.1.0'

server_scripts {
  'config.lua',
  'queue.lua',
  'photos.lua',
  'identity.lua',
  'weapons.lua',
  'server.lua',
  'txadmin.lua',
  'exports.lua',
}

-- Registered with exports() in exports.lua; listed here too as the resource's public interface.
server_exports {
  'log',
  'screenshot',
  -- Fivemanage fmsdk's log exports
  'LogMessage',
  'Log',
  'Info',
  'Warn',
  'Error',
}
