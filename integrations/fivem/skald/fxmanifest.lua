-- Skald: sends this server's logs (joins, leaves, chat, deaths and whatever other resources log) to Skald.
-- Install: copy this folder to resources/skald, then in server.cfg:
--   set skald_url "https://skald.example.com"
--   set skald_api_key "<your server's API key>"
--   ensure skald
fx_version 'cerulean'
game 'gta5'
lua54 'yes'

name 'skald'
description 'Skald log collection: join, leave, chat and death logs plus exports.skald:log for other resources'
version '1.0.0'

server_scripts {
  'config.lua',
  'queue.lua',
  'photos.lua',
  'server.lua',
}

server_exports {
  'log',
  'screenshot',
}
