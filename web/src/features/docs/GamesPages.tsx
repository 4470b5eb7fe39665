import { Link } from 'react-router';
import { CodeBlock } from './CodeBlock.tsx';
import { DocTable } from './DocTable.tsx';
import { apiOrigin, DocsLayout } from './DocsLayout.tsx';

/** The code-hosting page the footer links to: the resource ships in Skald's repository. */
const SOURCE_HOME = 'https://github.com/skald-logs';

export function FiveMDocsPage() {
  const origin = apiOrigin();
  return (
    <DocsLayout title="FiveM">
      <p>
        The Skald resource sends your FXServer's logs to Skald: players joining and leaving, chat, deaths, and anything your other resources log. It batches logs,
        retries when Skald asks it to wait, and never prints your key.
      </p>
      <h2>Install</h2>
      <ol>
        <li>
          <Link to="/create-server">Create a server</Link> in Skald and copy its API key.
        </li>
        <li>
          Copy the folder <code>integrations/fivem/skald</code> of the Skald source (<a href={SOURCE_HOME}>on GitHub</a>) to your server's{' '}
          <code>resources/skald</code>; it needs nothing else.
        </li>
        <li>
          Add to <code>server.cfg</code> (the key with <code>set</code>, not <code>setr</code>, so it stays on the server):
        </li>
      </ol>
      <CodeBlock
        label="server.cfg lines"
        code={`set skald_url "${origin}"
set skald_api_key "YOUR_API_KEY"
ensure skald`}
      />
      <ol start={4}>
        <li>
          Restart the server (or <code>refresh</code> then <code>ensure skald</code> in the console). Join it: a <code>[JOIN]</code> log appears under{' '}
          <Link to="/logs">Logs</Link> within a few seconds.
        </li>
      </ol>
      <p>
        <code>skald_url</code> is the address of Skald itself; the resource adds <code>/api/logs</code>. The convars are read at every send, so changing the key with{' '}
        <code>set skald_api_key</code> takes effect without a restart.
      </p>
      <h2>What it logs</h2>
      <DocTable
        caption="Built-in logs"
        head={['Event', 'Level', 'Type', 'Message']}
        rows={[
          ['a player joins', 'info', 'Join', <code>[JOIN] Name joined the server</code>],
          ['a player leaves', 'info', 'Leave', <code>[LEAVE] Name left the server (reason)</code>],
          ['chat (the chat resource)', 'info', 'Chat', <code>Name: text</code>],
          [
            'a death (baseevents)',
            'warning (shown as warn)',
            'Death',
            <><code>[DEATH] Name was killed by Killer</code> or <code>[DEATH] Name died</code></>,
          ],
        ]}
      />
      <p>
        The metadata holds the player's server id and license identifier (never the IP address). Turn any of these off in <code>config.lua</code>. Deaths come from
        baseevents, which the dying player's game reports, so a modified client could fake one.
      </p>
      <h2>Logging from your resources</h2>
      <CodeBlock
        label="the export from Lua"
        code={`exports.skald:log('error', 'Economy', 'Bank desync on account 12', { account = 12 })

-- or, from server scripts, the event (server side only; clients cannot trigger it):
TriggerEvent('skald:log', 'info', 'Jobs', 'Player 7 became a mechanic', { playerId = 7 })`}
      />
      <p>
        The arguments are level (info, warn or warning, error, fatal, debug), type, message and an optional metadata table with string keys. The calling resource's
        name is sent as the log's resource.
      </p>
      <h2>Screenshots</h2>
      <p>
        With <code>screenshot-basic</code> started, <code>exports.skald:screenshot(playerId, message, level, type, metadata)</code> takes the player's screen and
        stores it as a photo log (see <Link to="/docsapi/photologs">Photo logs API</Link>).
      </p>
      <h2>Batching, retries and outages</h2>
      <ul>
        <li>Logs are queued and sent as one JSON array every 3 seconds, or at once when 100 are waiting.</li>
        <li>
          When Skald answers 429 (the hourly quota is used up) or 503, the resource waits the <code>retryAfter</code> seconds from the answer's body, then sends the
          same logs again. With no answer at all it waits 2, 4, 8 … up to 60 seconds.
        </li>
        <li>
          Nothing is lost during a short outage: up to 5,000 logs wait in memory. Past that the oldest are dropped and the server console says how many. A server
          restart empties the queue.
        </li>
        <li>
          A refused key (401) or a suspended server (403) keeps the logs and prints a warning until the key is fixed. Logs Skald refuses as invalid (400) are dropped
          with a console message.
        </li>
      </ul>
      <p>The resource prints only to the server console, prefixed with [skald], and never the API key.</p>
    </DocsLayout>
  );
}

export function MinecraftDocsPage() {
  return (
    <DocsLayout title="Minecraft">
      <p>Minecraft support is coming soon.</p>
      <p>
        Until then, any server or plugin that can make HTTP requests can send logs with the <Link to="/docsapi/logs">Logs API</Link>.
      </p>
    </DocsLayout>
  );
}
