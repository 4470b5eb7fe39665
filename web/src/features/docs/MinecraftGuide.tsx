import { Link } from 'react-router';
import { CodeBlock } from './CodeBlock.tsx';
import { DocTable } from './DocTable.tsx';
import { apiOrigin, DocsLayout } from './DocsLayout.tsx';

/** The code-hosting page the guide links to: the integration ships in Skald's repository. */
const SOURCE_HOME = 'https://github.com/skald-logs';

/** The jar `integrations/minecraft/build.sh` makes. */
export const MINECRAFT_JAR = 'skald-minecraft-0.1.0.jar';

/** What each console line becomes: the line as the server prints it, its type, its level. */
export const MINECRAFT_LOGS = [
  ['UUID of player Steve is 069a79f4-…', 'Login', 'info'],
  ['Steve[/…] logged in with entity id 138 at (…)', 'Login', 'info'],
  ['Steve joined the game', 'Join', 'info'],
  ['<Steve> hello', 'Chat', 'info'],
  ['Steve was slain by Zombie (every death message of the game)', 'Death', 'warn'],
  ['Steve issued server command: /tpa Alex', 'Command', 'info'],
  ['[Steve: Set own game mode to Creative Mode]', 'Command', 'info'],
  ['[Server] Restarting soon (/say)', 'Broadcast', 'info'],
  ['Steve lost connection: Disconnected', 'Disconnect', 'info'],
  ['Steve left the game', 'Leave', 'info'],
  ['Disconnecting Griefer (/…): You are not whitelisted on this server!', 'LoginRefused', 'info'],
  ['Starting minecraft server version 1.21.1', 'ServerStarting', 'info'],
  ['Done (3.214s)! For help, type "help"', 'ServerStart', 'info'],
  ['Stopping server', 'ServerStop', 'info'],
  ["Can't keep up! Is the server overloaded? Running 2045ms or 40 ticks behind", 'Lag', 'warn'],
  ['any other warning or error (with its exception)', 'Warning, Error', 'warn, error'],
  ['any other line', 'General', 'info'],
] as const;

const term = (text: string) => <span className="doc-term">{text}</span>;

export function MinecraftDocsPage() {
  const origin = apiOrigin();
  return (
    <DocsLayout title="Minecraft">
      <p>
        Every Minecraft server logs through log4j2, so Skald ships a log4j2 appender: one jar that sends your console to Skald, with joins and leaves, chat,
        deaths, commands, restarts and errors each as a log of its own type. On Paper, Spigot and Folia the jar is also a plugin that adds players' UUIDs and
        each death's killer and cause. It batches logs, retries when Skald asks it to wait, never slows the server's tick, and never prints your key.
      </p>
      <h2>Download</h2>
      <p>
        The jar is built from the Skald source (<a href={SOURCE_HOME}>on GitHub</a>), folder <code>integrations/minecraft</code>, with Java 17 and Maven. On
        Debian or Ubuntu the build needs no download at all: it uses the distribution's Java packages.
      </p>
      <CodeBlock
        label="build the jar"
        code={`sudo apt-get install default-jdk-headless maven liblog4j2-java junit5 maven-debian-helper
integrations/minecraft/build.sh
# the jar: integrations/minecraft/skald-minecraft/target/${MINECRAFT_JAR}`}
      />
      <h2>Paper, Spigot and Folia: the plugin</h2>
      <ol>
        <li>
          <Link to="/create-server">Create a server</Link> in Skald and copy its API key.
        </li>
        <li>
          Copy <code>{MINECRAFT_JAR}</code> to the server's <code>plugins</code> folder and start the server once: it writes <code>plugins/Skald/config.yml</code>.
        </li>
        <li>Set the address and the key in that file (or leave the key empty and set the environment variable it names), then restart:</li>
      </ol>
      <CodeBlock
        label="plugins/Skald/config.yml"
        code={`url: "${origin}"
api-key: "YOUR_API_KEY"
level: "INFO"
log-addresses: false`}
      />
      <p>
        Join the server: a <code>Join</code> log appears under <Link to="/logs">Logs</Link> within a few seconds.
      </p>
      <h2>Any server: log4j2.xml</h2>
      <p>
        Vanilla, Fabric, Forge and Velocity load the appender from their log4j2 configuration. Put the jar on the Java class path that loads log4j (vanilla 1.18
        and later: start the server extracted in <code>versions/</code> and <code>libraries/</code> with the jar added to <code>-cp</code>, since the bundled{' '}
        <code>server.jar</code> loads only its own libraries), copy the server's log4j2.xml, and add these lines:
      </p>
      <CodeBlock
        label="log4j2.xml lines"
        code={`<!-- in <Appenders> -->
<Skald name="Skald" url="${origin}" apiKeyEnv="SKALD_API_KEY" level="INFO"/>
<!-- in <Root> -->
<AppenderRef ref="Skald"/>`}
      />
      <CodeBlock
        label="start command"
        code={`export SKALD_API_KEY="YOUR_API_KEY"
java -Dlog4j.configurationFile=log4j2.xml -cp "${MINECRAFT_JAR}:versions/1.21.1/server-1.21.1.jar:$(find libraries -name '*.jar' | tr '\\n' ':')" net.minecraft.server.Main nogui`}
      />
      <DocTable
        caption="Appender settings"
        head={['Attribute', 'Default', 'What it sets']}
        rows={[
          [<code>url</code>, '(required)', <>The address of Skald itself; the appender adds <code>/api/logs</code>. A query string is refused.</>],
          [<><code>apiKey</code>, <code>apiKeyEnv</code></>, '(one required)', <>The server's API key, or the name of an environment variable holding it (kept out of the file).</>],
          [<code>level</code>, 'INFO', 'The lowest level sent.'],
          [<code>batchSize</code>, '1000', 'Logs per request, at most 1,000. A batch also goes 1 second after its first log.'],
          [<code>queueCapacity</code>, '10000', 'Logs kept while Skald cannot be reached.'],
          [<code>logAddresses</code>, 'false', <>Send players' IP addresses. Off: they are masked in every line.</>],
          [<code>resource</code>, 'minecraft', "The resource of the game's own lines; a plugin's lines carry the plugin's name."],
        ]}
      />
      <h2>What it logs</h2>
      <DocTable
        caption="Console lines"
        head={['Console line', 'Type', 'Level']}
        rows={MINECRAFT_LOGS.map(([line, type, level]) => [line.startsWith('any ') ? line : <code>{line}</code>, term(type), term(level)])}
      />
      <h2>Metadata</h2>
      <DocTable
        caption="Metadata keys"
        head={['Key', 'In', 'Holds']}
        rows={[
          [<code>player</code>, 'joins, leaves, chat, commands', <><code>{'{ name, uuid }'}</code> (<code>address</code> only with logAddresses)</>],
          [<><code>victim</code>, <code>killer</code></>, 'deaths', <>the player, and the killer's <code>{'{ name }'}</code> (the plugin adds <code>uuid</code> and <code>type</code>)</>],
          [<><code>deathMessage</code>, <code>weapon</code>, <code>cause</code></>, 'deaths', <>the game's message key (<code>death.attack.mob</code>), the weapon's name, and the plugin's damage cause</>],
          [<><code>text</code>, <code>command</code>, <code>source</code></>, 'chat, commands', <>what was said or run, and who: <code>player</code>, <code>console</code>, <code>rcon</code> or <code>commandBlock</code></>],
          [<><code>logger</code>, <code>thread</code>, <code>exception</code></>, 'other lines', <>where the line came from, and an exception's class, message and first stack frames</>],
        ]}
      />
      <h2>Batching, retries and outages</h2>
      <ul>
        <li>Logging only queues a line: parsing and sending happen on a thread of their own, so the server's tick never waits for Skald.</li>
        <li>
          When Skald answers 429 (the hourly quota is used up) or 503, the appender waits the <code>retryAfter</code> seconds from the answer's body, then sends the
          same logs again, each with the time it happened. With no answer at all it waits 1, 2, 4 … up to 60 seconds.
        </li>
        <li>
          Up to 10,000 logs wait in memory. Past that the oldest are dropped, and the server's log and a <code>SkaldQueue</code> log in Skald say how many.
        </li>
        <li>At shutdown it sends what waits for up to 5 seconds.</li>
      </ul>
      <p>The key travels only in the X-API-Key header and is never printed.</p>
    </DocsLayout>
  );
}
