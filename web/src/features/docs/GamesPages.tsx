import { Link } from 'react-router';
import { CodeBlock } from './CodeBlock.tsx';
import { DocTable } from './DocTable.tsx';
import { apiOrigin, DocsLayout } from './DocsLayout.tsx';

/** The code-hosting page the footer links to: the resource ships in Skald's repository. */
const SOURCE_HOME = 'https://github.com/skald-logs';

/** The resource's built-in logs: what happens, its type, its level, its message. */
const BUILT_IN_LOGS = [
  ['a player joins', 'Join', 'info', '[JOIN] Name joined the server'],
  ['a player leaves', 'Leave', 'info', '[LEAVE] Name left the server (reason)'],
  ['chat (the chat resource)', 'Chat', 'info', 'Name: text'],
  ['killed by a player (baseevents)', 'Death', 'warning', '[DEATH] Name was killed by Killer (WEAPON_PISTOL)'],
  ['killed by something else: an NPC, an animal, a vehicle', 'Death', 'warning', '[DEATH] Name was killed (WEAPON_ANIMAL)'],
  ['died without a killer: a fall, drowning, fire', 'Death', 'warning', '[DEATH] Name died'],
] as const;

/** txAdmin's events (txAdmin:events:<name>) the resource logs. */
const TXADMIN_LOGS = [
  ['playerBanned', 'Ban', 'warning', '[BAN] Admin banned Name (2 days): reason'],
  ['playerWarned', 'AdminWarning', 'warning', '[WARN] Admin warned Name: reason'],
  ['playerKicked', 'Kick', 'warning', '[KICK] Admin kicked Name: reason'],
  ['playerHealed', 'Heal', 'info', '[HEAL] Admin healed Name'],
  ['playerDirectMessage', 'DirectMessage', 'info', '[DM] Admin to Name: text'],
  ['whitelistPlayer, whitelistPreApproval, whitelistRequest', 'Whitelist', 'info', '[WHITELIST] Admin whitelisted Name'],
  ['actionRevoked', 'Revoke', 'info', '[REVOKE] Admin revoked the ban ID of Name'],
  ['announcement', 'Announcement', 'info', '[ANNOUNCEMENT] Admin: text'],
  ['scheduledRestart, scheduledRestartSkipped', 'Restart', 'info', '[RESTART] scheduled restart in 30 minutes'],
  ['serverShuttingDown', 'Shutdown', 'warning', '[SHUTDOWN] Admin shuts the server down in 5 seconds: text'],
] as const;

/** A log type or level: broken between words only, so a narrow column does not split "Death". */
const term = (text: string) => <span className="doc-term">{text}</span>;

export function FiveMDocsPage() {
  const origin = apiOrigin();
  return (
    <DocsLayout title="FiveM">
      <p>
        The Skald resource sends your FXServer's logs to Skald: players joining and leaving, chat, deaths, txAdmin's bans, kicks and announcements, and anything your
        other resources log. Every player in a log comes with their identifiers. It batches logs, retries when Skald asks it to wait, and never prints your key.
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
          Add to <code>server.cfg</code> (the key with <code>set</code>, not <code>setr</code>, so it stays on the server). Deaths come from{' '}
          <code>baseevents</code>; screenshots need <code>screencapture</code> or <code>screenshot-basic</code>:
        </li>
      </ol>
      <CodeBlock
        label="server.cfg lines"
        code={`ensure baseevents
ensure screenshot-basic
set skald_url "${origin}"
set skald_api_key "YOUR_API_KEY"
ensure skald`}
      />
      <ol start={4}>
        <li>
          Restart the server (or <code>refresh</code> then <code>ensure skald</code> in the console). Join it: a <code>[JOIN]</code> log appears under{' '}
          <Link to="/logs">Logs</Link> within a few seconds.
        </li>
      </ol>
      <h2>Settings</h2>
      <DocTable
        caption="Convars"
        head={['Convar', 'What it sets']}
        rows={[
          [<code>skald_url</code>, <>The address of Skald itself; the resource adds <code>/api/logs</code>.</>],
          [<code>skald_api_key</code>, "Your server's API key. Read at every send, so a new key takes effect without a restart."],
          [<code>skald_log_ip</code>, <>Set to <code>true</code> to send players' <code>ip:</code> identifiers too. Off unless you set it.</>],
        ]}
      />
      <p>
        <code>config.lua</code> turns each kind of log on or off (joins, leaves, chat, deaths, txAdmin), chooses the identifier kinds sent, caps deaths at 10 per
        player a minute, and holds the batching settings below.
      </p>
      <h2>What it logs</h2>
      <p>
        The level <code>warning</code> is stored as <code>warn</code>.
      </p>
      <DocTable
        caption="Built-in logs"
        head={['Event', 'Type', 'Level', 'Message']}
        rows={BUILT_IN_LOGS.map(([event, type, level, message]) => [event, term(type), term(level), <code>{message}</code>])}
      />
      <p>
        Deaths come from baseevents, which the dying player's game reports: a modified client could fake one, and the resource logs at most 10 per player a minute.
        Without <code>baseevents</code> started the console says so.
      </p>
      <DocTable
        caption="txAdmin events"
        head={['txAdmin event', 'Type', 'Level', 'Message']}
        rows={TXADMIN_LOGS.map(([event, type, level, message]) => [event, term(type), term(level), <code>{message}</code>])}
      />
      <h2>Metadata</h2>
      <p>
        Each player in a log is an object of its own: <code>{'{ name, serverId, identifiers }'}</code>, the identifiers as <code>kind:value</code> strings of the
        kinds <code>license</code>, <code>license2</code>, <code>discord</code>, <code>steam</code>, <code>fivem</code>, <code>xbl</code> and <code>live</code> (
        <code>ip</code> only with <code>skald_log_ip</code>). Skald's players view links the identifiers of one object to one player.
      </p>
      <DocTable
        caption="Metadata keys"
        head={['Key', 'In', 'Holds']}
        rows={[
          [<code>player</code>, 'joins, leaves, chat, screenshots', 'the player object'],
          [<code>reason</code>, 'leaves, bans, warnings, kicks', 'the reason given'],
          [<><code>victim</code>, <code>killer</code></>, 'deaths', 'player objects (no killer when no player killed)'],
          [<code>cause</code>, 'deaths', <><code>player</code>, <code>other</code> (an NPC, an animal, a vehicle) or <code>none</code> (no killer)</>],
          [<><code>weapon</code>, <code>weaponHash</code></>, 'deaths', <>the weapon's name when known (<code>WEAPON_PISTOL</code>) and its hash as the game reports it</>],
          [<><code>killerType</code>, <code>killerVehicle</code>, <code>position</code></>, 'deaths', <>baseevents' ped type, <code>{'{ model, seat }'}</code> of the killer's vehicle, <code>{'{ x, y, z }'}</code> of the victim</>],
          [<code>admin</code>, 'txAdmin', <><code>{'{ username }'}</code>: the admin's txAdmin name, or <code>txAdmin</code> for the scheduler (not a player's name)</>],
          [<code>target</code>, 'txAdmin', <>the player acted on: a player object (<code>serverId</code> only while online)</>],
          [<code>event</code>, 'txAdmin', <>txAdmin's event name, <code>txAdmin:events:playerBanned</code> for instance</>],
        ]}
      />
      <h2>Logging from your resources</h2>
      <CodeBlock
        label="the exports from Lua"
        code={`-- exports.skald:log(level, message, metadata, type)
exports.skald:log('error', 'Bank desync on account 12', { account = 12 }, 'Economy')

-- a player named by server id (playerSource, or targetSource) is sent with name and identifiers
exports.skald:log('info', 'Player 7 became a mechanic', { playerSource = 7 }, 'Jobs')

-- the same as an event, from server scripts only (clients cannot trigger it)
TriggerEvent('skald:log', 'info', 'Shop restocked', nil, 'Economy')

-- exports.skald:screenshot(playerId, message, metadata): true when the screenshot was asked for
exports.skald:screenshot(source, 'Reported for cheating', { reportId = 42 })`}
      />
      <p>
        The level is info, warn (or warning), error, fatal or debug; the metadata an optional table with string keys; the type defaults to General. The calling
        resource's name is sent as the log's resource. <code>screenshot</code> asks <code>screencapture</code> (or, without it, <code>screenshot-basic</code>) for the
        player's screen and stores it as a photo log (see <Link to="/docsapi/photologs">Photo logs API</Link>); with neither started it returns false and the console
        says why.
      </p>
      <h2>Moving from Fivemanage</h2>
      <p>
        The resource answers the log exports of Fivemanage's <code>fmsdk</code> with the same arguments: replace <code>fmsdk</code> by <code>skald</code> in your
        scripts and nothing else.
      </p>
      <DocTable
        caption="Fivemanage exports"
        head={['fmsdk export', 'In Skald']}
        rows={[
          [<code>LogMessage(level, message, metadata)</code>, 'a log of type General'],
          [<code>Log(datasetId, level, message, metadata)</code>, <>the dataset is the log's type (<code>default</code> is General)</>],
          [<><code>Info</code>, <code>Warn</code>, <code>Error</code>(datasetId, message, metadata)</>, 'the same at level info, warn or error'],
          [<><code>metadata.playerSource</code>, <code>targetSource</code></>, <>the player objects <code>player</code> and <code>target</code></>],
          [<><code>takeImage</code>, <code>takeServerImage</code></>, <>not offered: use <code>exports.skald:screenshot</code></>],
        ]}
      />
      <h2>Batching, retries and outages</h2>
      <ul>
        <li>Logs are queued and sent as one JSON array every 3 seconds, or at once when 100 are waiting.</li>
        <li>
          Each log carries the time it happened (<code>timestamp</code>), so a log sent late keeps its own time. A Skald too old to know the field gets the logs
          without it.
        </li>
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

// The Minecraft guide lives in its own module; the route loads both game guides from here.
export { MinecraftDocsPage } from './MinecraftGuide.tsx';
