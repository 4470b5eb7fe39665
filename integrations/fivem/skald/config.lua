-- Settings of the Skald resource. The URL and the API key are convars (server.cfg), not set here:
--   set skald_url "https://skald.example.com"   -- the Skald origin; the resource appends /api/logs
--   set skald_api_key "<key>"                   -- the server's API key (Skald: Settings > API key)
Config = {
  -- Logs are sent as one JSON array per flush: every FlushIntervalMs, or at once when BatchSize logs wait.
  FlushIntervalMs = 3000,
  -- At most this many logs per request (Skald accepts up to 1000; smaller batches retry faster).
  BatchSize = 100,
  -- Logs kept while Skald cannot be reached; beyond it the oldest are dropped (and the console says so).
  MaxQueue = 5000,
  -- Waits between retries when Skald does not say how long to wait: 2, 4, 8 ... up to MaxBackoffSeconds.
  MaxBackoffSeconds = 60,
  -- Built-in logs; set one to false to stop sending it.
  LogJoins = true,
  LogLeaves = true,
  LogChat = true,
  LogDeaths = true,
  -- Player identifiers added to the metadata of player logs (prefixes of GetPlayerIdentifiers).
  Identifiers = { 'license' },
}
