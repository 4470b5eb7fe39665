import { Link } from 'react-router';
import { CodeBlock } from './CodeBlock.tsx';
import { DocTable } from './DocTable.tsx';
import { apiOrigin, DocsLayout } from './DocsLayout.tsx';
import { TIER_COLUMNS, TierTable } from './TierTable.tsx';

// The public ingestion API as the running service implements it (services/ingestion, docs/INGESTION.md,
// GET /api/openapi.json): fields, limits, answers and their status codes.

/** The answers both ingestion routes give, with their status codes. */
/** The curl command that posts `json` to this installation's Logs API with the server's key left to fill in. */
function curlPostLogs(origin: string, json: string): string {
  return `curl -X POST ${origin}/api/logs \\
  -H "X-API-Key: YOUR_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '${json}'`;
}

function AnswersTable({ photo }: { photo: boolean }) {
  return (
    <DocTable
      caption="Answers"
      head={['Status', 'When', 'Body']}
      rows={[
        [
          '201',
          photo ? 'The photo log was stored.' : 'Every log of the request was accepted.',
          <>
            <code>{'{"id": "…"}'}</code>
            {!photo && (
              <>
                {' '}for one log, <code>{'{"ids": ["…", …]}'}</code> for an array (same order)
              </>
            )}
          </>,
        ],
        [
          '400',
          'A field is invalid; nothing of the request is stored.',
          <><code>error</code>, <code>message</code> and <code>field</code> naming it ({photo ? <code>metadata</code> : <code>[3].level</code>})</>,
        ],
        ['401', 'The key is missing, unknown or was reset.', <code>{'{"error": "Invalid API key"}'}</code>],
        ['403', 'The server is suspended.', <code>{'{"error": "This server is suspended"}'}</code>],
        ['413', photo ? 'The photo is larger than 10 MB or 40 megapixels.' : 'The body is larger than 5 MiB.', <code>error</code>],
        ...(photo ? [['415', 'The photo is not a JPG, PNG or WEBP image (judged from its bytes), or the request is not multipart.', <code>error</code>]] : []),
        [
          '429',
          "The tier's logs-per-hour quota is used up.",
          <>
            <code>error</code>, <code>usage</code> (<code>used</code>, <code>limit</code>, <code>remaining</code>, <code>reset</code>, <code>tierLabel</code>) and{' '}
            <code>retryAfter</code> (seconds); header <code>Retry-After</code>
          </>,
        ],
        [
          '503',
          <>{photo ? 'Skald is briefly unable to accept logs, or busy with other photos.' : 'Skald is briefly unable to accept logs.'} Nothing was stored.</>,
          <><code>error</code> and <code>retryAfter</code> (seconds); header <code>Retry-After</code></>,
        ],
      ]}
    />
  );
}

function RetryAdvice() {
  return (
    <>
      <h2>Quota, retries and Retry-After</h2>
      <p>
        Each server may send a number of logs per clock hour, set by its tier; a photo log counts as one log. A batch counts every log in it, all or nothing,
        and only accepted logs count: a refused request costs nothing. Send the same request again after a <strong>429</strong> or a <strong>503</strong>,
        once the <code>Retry-After</code> header's seconds have passed; the body carries the same number as <code>retryAfter</code> for clients that cannot read
        headers (FiveM's <code>PerformHttpRequest</code> gives scripts no headers for these answers). A 400, 413 or 415 will never succeed as it is: fix the request
        instead of retrying.
      </p>
      <TierTable caption="Logs per hour by tier" columns={[TIER_COLUMNS.logsPerHour]} />
    </>
  );
}

export function SetupDocsPage() {
  const origin = apiOrigin();
  return (
    <DocsLayout title="Setup">
      <p>From an account to the first log in four steps.</p>
      <ol>
        <li>
          <Link to="/register">Register</Link> and sign in.
        </li>
        <li>
          <Link to="/create-server">Create a server</Link>. Skald shows its API key once, in the dialog 'Save your API key': copy it before you press 'I have
          saved it'.
        </li>
        <li>
          Give the key to your game server, for FiveM with the <Link to="/games/fivem">Skald resource</Link>, or send logs yourself to{' '}
          <code>{origin}/api/logs</code> with the key in the <code>X-API-Key</code> header.
        </li>
        <li>
          Open <Link to="/logs">Logs</Link>: the log appears within seconds.
        </li>
      </ol>
      <h2>Try it with curl</h2>
      <CodeBlock
        label="first log with curl"
        code={curlPostLogs(origin, '{"message": "Hello from my server"}')}
      />
      <p>
        The answer is <code>201</code> with the new log's id, for example <code>{'{"id":"0190f1c2-…"}'}</code>. A wrong key answers <code>401</code>{' '}
        <code>{'{"error":"Invalid API key"}'}</code>.
      </p>
      <h2>Keep the key secret</h2>
      <p>
        The key lets anyone write logs to your server. Keep it in your server's configuration, not in client scripts. If it leaks, reset it under Settings, API key
        (see <Link to="/features/apitokens">API tokens</Link>): the old key stops working at once.
      </p>
    </DocsLayout>
  );
}

export function LogsApiDocsPage() {
  const origin = apiOrigin();
  return (
    <DocsLayout title="Logs API">
      <p>
        <code>POST {origin}/api/logs</code> takes one log as a JSON object, or up to 1000 logs as a JSON array, authenticated with your server's API key.
      </p>
      <h2>The API key</h2>
      <p>
        Send it in the <code>X-API-Key</code> header (preferred) or as <code>Authorization: Bearer &lt;key&gt;</code>. The query parameter{' '}
        <code>?apiKey=&lt;key&gt;</code> still works for older clients but is deprecated: its answers carry <code>Deprecation: true</code> and a{' '}
        <code>Warning</code> header, and a key in an address ends up in proxies' and browsers' histories more easily.
      </p>
      <h2>Fields</h2>
      <DocTable
        caption="Log fields"
        head={['Field', 'Required', 'Default', 'Rules']}
        rows={[
          [<code>message</code>, 'yes', '–', 'text, not empty, at most 10,000 characters'],
          [
            <code>level</code>,
            'no',
            <code>info</code>,
            <>
              <code>info</code>, <code>warn</code>, <code>error</code>, <code>fatal</code> or <code>debug</code> (any case); <code>warning</code> is stored as{' '}
              <code>warn</code>
            </>,
          ],
          [<code>type</code>, 'no', <code>General</code>, 'text, at most 200 characters (for example Join, Chat, Economy)'],
          [<code>resource</code>, 'no', <code>unknown</code>, 'text, at most 200 characters (the script or plugin that logged)'],
          [<code>metadata</code>, 'no', <code>{'{}'}</code>, 'a JSON object, at most 16 KiB as JSON, nested at most 32 levels deep'],
        ]}
      />
      <p>
        Other fields are refused, and <code>null</code> counts as not sent. The whole request is checked before anything is stored: one invalid log in a batch
        refuses the batch with <code>400</code> and names it, for example <code>{`"field": "[3].level"`}</code>.
      </p>
      <h2>One log</h2>
      <CodeBlock
        label="one log with curl"
        code={curlPostLogs(origin, '{"message": "Player joined", "level": "info", "type": "Join", "resource": "core", "metadata": {"playerId": 12}}')}
      />
      <h2>A batch</h2>
      <p>Send up to 1000 logs in one array (at most 5 MiB); the answer lists their ids in the same order. Batches are the efficient way to send many logs.</p>
      <CodeBlock
        label="a batch with curl"
        code={curlPostLogs(origin, '[{"message": "Server started", "type": "System"}, {"message": "Low disk space", "level": "warn", "type": "System"}]')}
      />
      <h2>From Lua (FiveM)</h2>
      <p>
        The <Link to="/games/fivem">Skald resource</Link> does this for you, with batching and retries. To send a log yourself from a server script:
      </p>
      <CodeBlock
        label="one log from Lua"
        code={`PerformHttpRequest('${origin}/api/logs', function(status, body, headers, errorData)
  if status ~= 201 then
    print(('Skald refused the log: %s'):format(errorData or status))
  end
end, 'POST', json.encode({
  message = 'Player joined',
  level = 'info',
  type = 'Join',
  resource = GetCurrentResourceName(),
  metadata = { playerId = 12 },
}), {
  ['Content-Type'] = 'application/json',
  ['X-API-Key'] = GetConvar('skald_api_key', ''),
})`}
      />
      <p>
        Leave <code>metadata</code> out rather than sending an empty Lua table: <code>json.encode({'{}'})</code> gives <code>[]</code>, which is not an object.
      </p>
      <h2>Answers</h2>
      <AnswersTable photo={false} />
      <p>
        Every answer carries <code>Cache-Control: no-store</code>. Errors are JSON <code>{'{"error": "…", "message": "…"}'}</code>; show <code>error</code> to a
        person.
      </p>
      <RetryAdvice />
      <h2>Reading logs</h2>
      <p>
        Logs show under <Link to="/logs">Logs</Link> and on the dashboard, and can be exported. The full, generated reference of every route is at{' '}
        <a href="/api/openapi.json">/api/openapi.json</a>.
      </p>
    </DocsLayout>
  );
}

export function PhotoLogsApiDocsPage() {
  const origin = apiOrigin();
  return (
    <DocsLayout title="Photo logs API">
      <p>
        <code>POST {origin}/api/photologs</code> stores a screenshot with a log, sent as <code>multipart/form-data</code> with the same API key as the{' '}
        <Link to="/docsapi/logs">Logs API</Link> (<code>X-API-Key</code>, <code>Authorization: Bearer</code> or the deprecated <code>?apiKey=</code>).
      </p>
      <h2>Form fields</h2>
      <DocTable
        caption="Photo log form fields"
        head={['Field', 'Required', 'Rules']}
        rows={[
          [<code>photo</code>, 'yes', 'one file: JPG, PNG or WEBP (judged from its bytes, not its name), at most 10 MB and 40 megapixels'],
          [<code>message</code>, 'no', 'text, at most 10,000 characters'],
          [
            <><code>level</code>, <code>type</code>, <code>resource</code></>,
            'no',
            <>as for text logs: default <code>info</code>, <code>General</code>, <code>unknown</code></>,
          ],
          [<code>metadata</code>, 'no', 'a JSON object written as text, at most 16 KiB'],
        ]}
      />
      <CodeBlock
        label="a photo log with curl"
        code={`curl -X POST ${origin}/api/photologs \\
  -H "X-API-Key: YOUR_API_KEY" \\
  -F "photo=@screenshot.jpg" \\
  -F "message=Suspicious item spawn" \\
  -F "level=warn" \\
  -F "type=Anticheat" \\
  -F 'metadata={"playerId": 12}'`}
      />
      <h2>What Skald does with the photo</h2>
      <ul>
        <li>
          It is re-encoded in its own format with its metadata (EXIF, GPS) removed and the orientation applied, and scaled down, never up, to at most 3840 × 2160
          pixels' worth.
        </li>
        <li>A small thumbnail is made for the gallery.</li>
        <li>
          Each tier keeps a number of photo logs per server; beyond it the oldest photo log is deleted automatically. A photo log counts as one log against the hourly
          quota.
        </li>
      </ul>
      <TierTable caption="Photo logs kept by tier" columns={[TIER_COLUMNS.photoLogs, TIER_COLUMNS.logsPerHour]} />
      <h2>From FiveM</h2>
      <p>
        With <code>screencapture</code> or <code>screenshot-basic</code> running, the <Link to="/games/fivem">Skald resource</Link> takes and uploads a player's
        screenshot: <code>exports.skald:screenshot(playerId, message, metadata)</code>.
      </p>
      <h2>Answers</h2>
      <AnswersTable photo />
      <RetryAdvice />
    </DocsLayout>
  );
}
