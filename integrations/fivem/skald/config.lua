-- Settings of the Skald resource. The URL and the API key are convars (server.cfg), not set here:
--   set skald_url "https://skald.example.com"   -- the Skald origin; the resource appends /api/logs
--   set skald_api_key "<key>"                   -- the server's API key (Skald: Settings > API key)
--   set skald_log_ip "true"                     -- optional: also send players' ip: identifiers (off by default)
Config = {
  -- Logs are sent as one JSON array per flush: every FlushIntervalMs, or at once when BatchSize logs wait.
  FlushIntervalMs = 3000,
  -- At most this many logs per request (Skald accepts up to 1000; smaller batches retry faster).
  BatchSize = 100,
  -- Logs kept while Skald cannot be reached; beyond it the oldest are dropped (and the console says so).
  MaxQueue = 5000,
  -- Waits between retries when Skald does not say how long to wait: 2, 4, 8 ... up to MaxBackoffSeconds.
  MaxBackoffSeconds = 60,
  -- Each log carries the time it happened (`timestamp`, ISO 8601 UTC), so a log sent late after an outage or
  -- a 429 keeps its own time. A Skald too old to know the field is detected and the logs go without it.
  SendTimestamp = true,
  -- Built-in logs; set one to false to stop sending it.
  LogJoins = true,
  LogLeaves = true,
  LogChat = true,
  LogDeaths = true,
  LogTxAdmin = true,
  -- Deaths are reported by the dying player's game (baseevents), so a modified client could send many:
  -- beyond this many per player per minute they are not logged (the console says so once a minute).
  DeathsPerMinute = 10,
  -- Identifier kinds of GetPlayerIdentifiers sent with every player (metadata `identifiers`). `ip` is never
  -- sent unless the convar skald_log_ip is true, whatever this list holds.
  Identifiers = { 'license', 'license2', 'discord', 'steam', 'fivem', 'xbl', 'live' },
}
