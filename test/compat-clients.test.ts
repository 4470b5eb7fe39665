/**
 * Drop-in ingestion: the exact requests the FiveM clients servers already run send, replayed
 * against the all-in-one process (gateway, ingestion, logs), and the logs found with the right fields
 * through the logs API. Bodies and headers are built as each client's published source builds them:
 *
 *  - ox_lib overextended/ox_lib@3569d4cf4cda1cefb70697962e11ed572feadf5e imports/logger/server.lua (dispatcher,
 *    500 ms batches) and imports/logger/providers/{loki,datadog,fivemanage}.lua;
 *    older ox_lib @9552f7fc4f5739b6d468223d453cd619e7d9445c (Loki: tags through string.tostringall) and
 *    @eb31c4d83c6d6d3021d5608c03a3558c8ff409b8 (Fivemanage: metadata.tags as one string);
 *  - Fivemanage SDK fivemanage/sdk@e0b1d6848d2329d48a804e134d83206c3363aa96 features/images/server/main.ts
 *    (uploadImage: field `image`, `metadata` JSON text) and its transport
 *    fivemanage/winston-transport@cc38faa561cf4c8706a7be6b9f70f40771884f71 src/index.ts (POST /api/logs/batch);
 *  - QBCore's qb-log qbcore-framework/qb-smallresources@cc38c91ad3eed4381d9a17f3ac5dc272f7658ada server/logs.lua
 *    (Config.Logging 'fivemanage': POST /api/logs; 'discord': up to 10 embeds per message);
 *  - screenshot-basic citizenfx/screenshot-basic@5e89d4afb3e28b490344e84b5e2b5ac8cc5d9c75 ui/src/main.ts
 *    (requestScreenshotUpload: FormData with the file in the caller's field, `screenshot.<encoding>`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import protobuf from 'protobufjs';
import sharp from 'sharp';
import snappy from 'snappyjs';
import type { ApiLog } from '@skald/contracts';
import { waitFor } from '@skald/testing';
import { bearer, multipartForm, startAllInOne } from '../gateway/test/support/all-in-one.ts';
import type { AllInOne } from '../gateway/test/support/all-in-one.ts';

let aio: AllInOne;
let token: string;
let serverId: string;
let key: string;
let otherToken: string;

beforeAll(async () => {
  aio = await startAllInOne({ logLevel: 'trace', env: { PUBLIC_URL: 'https://skald.example' } });
  const owner = await aio.signUp('compatowner');
  token = owner.token;
  const server = await aio.createServer(token, 'Compat RP');
  serverId = server.id;
  key = server.api_key;
  otherToken = (await aio.signUp('compatstranger')).token;
});

afterAll(async () => {
  await aio?.close();
});

/** ox_lib's Basic header: base64(user .. ':' .. password), any user. */
function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** Every text log of the server matching `search`, oldest first (ids are time-ordered). */
async function logsMatching(search: string, expected: number): Promise<ApiLog[]> {
  let found: ApiLog[] = [];
  await waitFor(async () => {
    const res = await aio.inject({ method: 'GET', url: `/api/logs/my/combined?serverId=${serverId}&search=${encodeURIComponent(search)}`, headers: bearer(token) });
    found = res.json<ApiLog[]>();
    return found.length >= expected;
  }, `${expected} logs matching ${search}`);
  return [...found].sort((a, b) => (a.id < b.id ? -1 : 1));
}

const PNG = async (): Promise<Buffer> => sharp({ create: { width: 32, height: 24, channels: 3, background: '#3a6' } }).png().toBuffer();
const JPG = async (): Promise<Buffer> => sharp({ create: { width: 40, height: 30, channels: 3, background: '#a36' } }).jpeg().toBuffer();

describe('Loki push (ox_lib loki provider)', () => {
  it('stores each entry of the JSON push ox_lib builds: labels to type/resource/metadata, the JSON line unpacked, no dedupe', async () => {
    // providers/loki.lua: one stream per event, values {timestamp .. '000000000', json.encode(values)}, the
    // timestamp os.time() of the log (here a minute ago: a batch sent late is stored at its own time).
    const second = Math.floor(Date.now() / 1000) - 60;
    const line = JSON.stringify({ message: 'lokijson Bob bought a pistol', weapon: 'pistol', price: '500' });
    const body = {
      streams: [
        { stream: { server: 'Compat RP', resource: 'ox_inventory', event: 'purchase' }, values: [[`${second}000000000`, line], [`${second}000000000`, line]] },
        { stream: { server: 'Compat RP', resource: 'ox_core', event: 'playerJoined' }, values: [[`${second + 1}000000000`, JSON.stringify({ message: 'lokijson Alice joined' })]] },
      ],
    };
    const res = await aio.inject({
      method: 'POST',
      url: '/api/loki/api/v1/push',
      headers: { 'content-type': 'application/json', authorization: basic('skald', key) },
      payload: JSON.stringify(body),
    });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const logs = await logsMatching('lokijson', 3);
    expect(logs).toHaveLength(3);
    expect(logs.map((l) => [l.message, l.type, l.resource])).toEqual([
      ['lokijson Bob bought a pistol', 'purchase', 'ox_inventory'],
      ['lokijson Bob bought a pistol', 'purchase', 'ox_inventory'],
      ['lokijson Alice joined', 'playerJoined', 'ox_core'],
    ]);
    expect(logs[0]!.metadata).toEqual({ server: 'Compat RP', weapon: 'pistol', price: '500' });
    expect(logs.map((l) => l.created_at)).toEqual([second, second, second + 1].map((s) => new Date(s * 1000).toISOString()));
    expect(Date.parse(logs[0]!.received_at)).toBeGreaterThan(second * 1000 + 30_000);
    expect(logs[0]!.level).toBe('info');
  });

  it("drops the 'table: 0x…' tag older ox_lib made of a Lua table, and accepts the key as ?apiKey= and a gzip body", async () => {
    // ox_lib@9552f7f: formatTags(source, strjoin(',', tostringall(...))) then strsplit(':') per tag.
    const line = JSON.stringify({ message: 'lokiold vehicle spawned', model: 'adder', table: ' 0x55d0c1a2b3c4' });
    const body = { streams: [{ stream: { server: 'Compat RP', resource: 'qbx_vehicles', event: 'spawn' }, values: [['1763870402000000000', line]] }] };
    const res = await aio.inject({
      method: 'POST',
      url: `/api/loki/api/v1/push?apiKey=${key}`,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify(body)),
    });
    expect(res.statusCode).toBe(204);
    const [log] = await logsMatching('lokiold', 1);
    // Replayed with its 2025 timestamp, far outside the day a client's own time may lie before its arrival.
    expect(log!.metadata).toEqual({ server: 'Compat RP', model: 'adder', _skald: { clientTimestamp: '1763870402000000000', timestampRejected: 'too old' } });
    expect(log!.created_at).toBe(log!.received_at);
  });

  it('decodes the snappy-compressed protobuf PushRequest (Promtail, Grafana Alloy)', async () => {
    const root = protobuf.parse(`syntax = "proto3"; package logproto;
      message PushRequest { repeated StreamAdapter streams = 1; }
      message StreamAdapter { string labels = 1; repeated EntryAdapter entries = 2; uint64 hash = 3; }
      message EntryAdapter { Timestamp timestamp = 1; string line = 2; }
      message Timestamp { int64 seconds = 1; int32 nanos = 2; }`).root;
    const PushRequest = root.lookupType('logproto.PushRequest');
    const protoSecond = Math.floor(Date.now() / 1000) - 5;
    const message = PushRequest.create({
      streams: [{ labels: '{event="resourceStart", resource="monitor", level="warn"}', entries: [{ timestamp: { seconds: protoSecond, nanos: 5_000_005 }, line: 'lokiproto txAdmin restarted "x"' }] }],
    });
    const res = await aio.inject({
      method: 'POST',
      url: '/api/loki/api/v1/push',
      headers: { 'content-type': 'application/x-protobuf', authorization: basic('anyone', key) },
      payload: Buffer.from(snappy.compress(PushRequest.encode(message).finish())),
    });
    expect(res.statusCode).toBe(204);
    const [log] = await logsMatching('lokiproto', 1);
    expect(log).toMatchObject({ message: 'lokiproto txAdmin restarted "x"', type: 'resourceStart', resource: 'monitor', level: 'warn' });
    expect(log!.metadata).toBeNull();
    expect(log!.created_at).toBe(new Date(protoSecond * 1000 + 5).toISOString());
  });

  it('answers 400 naming the expected shape, and 401 to a wrong password, storing nothing', async () => {
    const bad = await aio.inject({ method: 'POST', url: '/api/loki/api/v1/push', headers: { authorization: basic('u', key) }, payload: { lines: ['x'] } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('a Loki push body');
    const wrong = await aio.inject({ method: 'POST', url: '/api/loki/api/v1/push', headers: { authorization: basic('u', 'nope') }, payload: { streams: [] } });
    expect(wrong.statusCode).toBe(401);
  });
});

describe('Datadog logs intake v2 (ox_lib datadog provider)', () => {
  it('stores the array ox_lib sends: service → type, ddtags split into metadata.tags, the Lua table tag dropped; gzip accepted', async () => {
    // providers/datadog.lua: {hostname, service = event, message, resource, ddsource = tostring(source), ddtags}.
    const body = [
      { hostname: 'Compat RP', service: 'weaponFired', message: 'datadog shots fired', resource: 'ox_inventory', ddsource: '3', ddtags: 'weapon:WEAPON_PISTOL,table: 0x7f3a2c0e1b40,username:Bob,license:license:abc123' },
      { hostname: 'Compat RP', service: 'weaponFired', message: 'datadog reload', resource: 'ox_inventory', ddsource: '3' },
    ];
    const res = await aio.inject({ method: 'POST', url: '/api/v2/logs', headers: { 'content-type': 'application/json', 'dd-api-key': key, 'content-encoding': 'gzip' }, payload: gzipSync(JSON.stringify(body)) });
    expect(res.statusCode, res.body).toBe(202);
    const logs = await logsMatching('datadog', 2);
    expect(logs[0]).toMatchObject({ message: 'datadog shots fired', type: 'weaponFired', resource: 'ox_inventory', level: 'info' });
    expect(logs[0]!.metadata).toEqual({ hostname: 'Compat RP', ddsource: '3', tags: { weapon: 'WEAPON_PISTOL', username: 'Bob', license: 'license:abc123' } });
    expect(logs[1]!.metadata).toEqual({ hostname: 'Compat RP', ddsource: '3' });
  });

  it('answers 401 to a wrong DD-API-KEY', async () => {
    const res = await aio.inject({ method: 'POST', url: '/api/v2/logs', headers: { 'dd-api-key': 'wrong' }, payload: [{ message: 'x' }] });
    expect(res.statusCode).toBe(401);
  });
});

describe('Fivemanage logs', () => {
  it("stores ox_lib's batch: dataset header → type, string args split on ':' only (stored as they arrive)", async () => {
    // providers/fivemanage.lua: lib.logger(source, 'purchase', msg, 'k1:v1,k2:v2', {item = 'water'}).
    const body = [{ level: 'info', message: 'fmoxlib bought water', resource: 'ox_inventory', metadata: { hostname: 'Compat RP', service: 'purchase', source: 4, k1: 'v1,k2', item: 'water' } }];
    const res = await aio.inject({
      method: 'POST',
      url: '/api/logs/batch',
      headers: { 'content-type': 'application/json', authorization: key, 'user-agent': 'ox_lib', 'x-fivemanage-dataset': 'economy' },
      payload: JSON.stringify(body),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    const [log] = await logsMatching('fmoxlib', 1);
    expect(log).toMatchObject({ type: 'economy', resource: 'ox_inventory', level: 'info' });
    expect(log!.metadata).toEqual({ hostname: 'Compat RP', service: 'purchase', source: 4, k1: 'v1,k2', item: 'water' });
  });

  it("splits older ox_lib's metadata.tags string and drops its Lua table tag; no dataset → the event as type", async () => {
    const body = [{ level: 'info', message: 'fmoldtags robbery', resource: 'qb-banking', metadata: { hostname: 'Compat RP', service: 'robbery', source: 2, tags: 'bank:fleeca,table: 0x55d0c1a2b3c4,username:Bob' } }];
    const res = await aio.inject({ method: 'POST', url: '/api/logs/batch', headers: { 'content-type': 'application/json', authorization: key, 'user-agent': 'ox_lib' }, payload: JSON.stringify(body) });
    expect(res.statusCode).toBe(200);
    const [log] = await logsMatching('fmoldtags', 1);
    expect(log!.type).toBe('robbery');
    expect(log!.metadata).toEqual({ hostname: 'Compat RP', service: 'robbery', source: 2, tags: { bank: 'fleeca', username: 'Bob' } });
  });

  it("stores the Fivemanage SDK transport's batch and qb-log's single log on POST /api/logs (answered the Fivemanage way)", async () => {
    const sdk = [
      { level: 'warn', message: 'fmsdk low fuel', resource: 'fmsdk', metadata: { playerSource: 7, serverSessionId: 'abc' } },
      { level: 'error', message: 'fmsdk crash', resource: 'fmsdk', metadata: [] },
    ];
    const batch = await aio.inject({ method: 'POST', url: '/api/logs/batch', headers: { 'content-type': 'application/json', authorization: key, 'x-fivemanage-dataset': 'default' }, payload: JSON.stringify(sdk) });
    expect(batch.statusCode).toBe(200);
    // qb-smallresources server/logs.lua, Config.Logging = 'fivemanage'.
    const qb = { level: 'warn', message: 'fmqblog Anti-Cheat', metadata: { description: 'Bob has been banned', playerId: 3, playerLicense: 'license:abc' }, resource: 'qb-core' };
    const single = await aio.inject({ method: 'POST', url: '/api/logs', headers: { authorization: key, 'content-type': 'application/json' }, payload: JSON.stringify(qb) });
    expect(single.statusCode).toBe(200);
    expect(single.json()).toEqual({ status: 'ok' });
    const v3 = await aio.inject({ method: 'POST', url: '/api/v3/logs', headers: { authorization: key, 'content-type': 'application/json' }, payload: JSON.stringify([{ level: 'debug', message: 'fmsdk v3' }]) });
    expect(v3.statusCode).toBe(200);
    const sdkLogs = await logsMatching('fmsdk', 3);
    expect(sdkLogs.map((l) => [l.message, l.level, l.type])).toEqual([
      ['fmsdk low fuel', 'warn', 'General'],
      ['fmsdk crash', 'error', 'General'],
      ['fmsdk v3', 'debug', 'General'],
    ]);
    expect(sdkLogs[1]!.metadata).toBeNull();
    const [qbLog] = await logsMatching('fmqblog', 1);
    expect(qbLog).toMatchObject({ level: 'warn', resource: 'qb-core', metadata: { description: 'Bob has been banned', playerId: 3, playerLicense: 'license:abc' } });
  });
});

describe('screenshot uploads', () => {
  it("stores screenshot-basic's files[] upload and the Fivemanage SDK's image upload as photo logs, answering url and id both ways", async () => {
    const form = multipartForm([{ name: 'files[]', filename: 'screenshot.jpg', type: 'image/jpeg', data: await JPG() }]);
    const shot = await aio.inject({ method: 'POST', url: '/api/image', headers: { ...form.headers, authorization: key }, payload: form.payload });
    expect(shot.statusCode).toBe(200);
    const answer = shot.json<{ id: string; url: string; status: string; data: { id: string; url: string } }>();
    expect(answer.status).toBe('ok');
    expect(answer.data).toEqual({ id: answer.id, url: answer.url });
    expect(answer.url).toBe(`https://skald.example/photologs?id=${answer.id}`);

    // fivemanage/sdk uploadImage: form.append('image', buffer, 'image.png'); form.append('metadata', JSON.stringify(metadata)).
    const sdk = multipartForm([
      { name: 'image', filename: 'image.png', type: 'image/png', data: await PNG() },
      { name: 'metadata', value: JSON.stringify({ playerSource: 5, reason: 'shotsdk report' }) },
    ]);
    const uploaded = await aio.inject({ method: 'POST', url: '/api/v2/image', headers: { ...sdk.headers, authorization: key }, payload: sdk.payload });
    expect(uploaded.statusCode).toBe(200);
    const base64 = await aio.inject({
      method: 'POST',
      url: '/api/v3/file/base64',
      headers: { authorization: key },
      payload: { base64: `data:image/png;base64,${(await PNG()).toString('base64')}`, filename: 'shot64.png', metadata: '{"case":"shot64"}' },
    });
    expect(base64.statusCode).toBe(200);

    let photos: ApiLog[] = [];
    await waitFor(async () => {
      const res = await aio.inject({ method: 'GET', url: `/api/photologs/my?serverId=${serverId}`, headers: bearer(token) });
      photos = res.json<{ photologs: ApiLog[] }>().photologs;
      return photos.length >= 3;
    }, 'three photo logs');
    const byId = new Map(photos.map((p) => [p.id, p]));
    expect(byId.get(answer.id)).toMatchObject({ message: 'screenshot.jpg', type: 'Screenshot', log_type: 'photo' });
    expect(byId.get(uploaded.json<{ id: string }>().id)).toMatchObject({ message: 'image.png', metadata: { playerSource: 5, reason: 'shotsdk report' } });
    expect(byId.get(base64.json<{ id: string }>().id)).toMatchObject({ message: 'shot64.png', metadata: { case: 'shot64' } });
  });

  it('refuses a non-image with 415 and an unknown field name with 400, storing nothing', async () => {
    const text = multipartForm([{ name: 'file', filename: 'notes.jpg', type: 'image/jpeg', data: Buffer.from('<html>not an image</html>') }]);
    expect((await aio.inject({ method: 'POST', url: '/api/v3/file', headers: { ...text.headers, authorization: key }, payload: text.payload })).statusCode).toBe(415);
    const odd = multipartForm([{ name: 'upload', filename: 'a.png', type: 'image/png', data: await PNG() }]);
    const res = await aio.inject({ method: 'POST', url: '/api/v3/file', headers: { ...odd.headers, authorization: key }, payload: odd.payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('file, image or files[]');
  });
});

describe('Discord-shaped URLs (qb-log Discord mode)', () => {
  const colors = { red: 16711680, orange: 16744192, default: 14423100, green: 65280 };
  const embed = (title: string, color: number, description: string) => ({
    title,
    color,
    footer: { text: 'Sun Nov 23 04:00:00 2026' },
    description,
    author: { name: 'QBCore Logs', icon_url: 'https://raw.githubusercontent.com/GhzGarage/qb-media-kit/main/logo.png' },
  });

  it('stores each of the 10 embeds qb-log batches as one log: title → message, colour → level, the category segment → type', async () => {
    const embeds = Array.from({ length: 10 }, (_, i) =>
      embed(`discordqb ${i}`, [colors.red, colors.orange, colors.default, colors.green][i % 4]!, `**Bob** (license:abc) did thing ${i}`),
    );
    const res = await aio.inject({
      method: 'POST',
      url: `/api/discord/${key}/joinleave`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'QB Logs', content: '@everyone', embeds }),
    });
    expect(res.statusCode).toBe(204);
    const logs = await logsMatching('discordqb', 10);
    expect(logs.map((l) => l.level).slice(0, 4)).toEqual(['error', 'warn', 'info', 'info']);
    expect(logs[0]).toMatchObject({ message: 'discordqb 0', type: 'joinleave' });
    expect(logs[0]!.metadata).toEqual({
      username: 'QB Logs',
      content: '@everyone',
      description: '**Bob** (license:abc) did thing 0',
      footer: 'Sun Nov 23 04:00:00 2026',
      author: 'QBCore Logs',
      color: colors.red,
    });
  });

  it('stores content alone as a log and an image attachment as a photo log (multipart with payload_json)', async () => {
    const form = multipartForm([
      { name: 'payload_json', value: JSON.stringify({ content: 'discordfile evidence attached', username: 'Evidence' }) },
      { name: 'files[0]', filename: 'evidence.png', type: 'image/png', data: await PNG() },
    ]);
    const res = await aio.inject({ method: 'POST', url: `/api/discord/${key}/123456789/tokenpart`, headers: form.headers, payload: form.payload });
    expect(res.statusCode).toBe(204);
    const logs = await logsMatching('discordfile', 1);
    expect(logs[0]).toMatchObject({ message: 'discordfile evidence attached', type: 'Evidence', metadata: { username: 'Evidence' } });
    const photos = await logsMatching('evidence.png', 1);
    expect(photos[0]).toMatchObject({ log_type: 'photo', metadata: { attachment: 'evidence.png' } });
  });

  it('never logs nor echoes the key in the path, on known and unknown routes (404 line included)', async () => {
    const before = aio.lines.length;
    const probes = [
      { method: 'POST' as const, url: `/api/discord/${key}/x`, payload: { nothing: true } },
      { method: 'POST' as const, url: `/api/discord/${key}-wrong/x`, payload: { content: 'x' } },
      { method: 'GET' as const, url: `/api/discord/${key}/x` },
      { method: 'POST' as const, url: `/discord/${key}/x`, payload: { content: 'x' } },
      { method: 'DELETE' as const, url: `/api/discord/${key}` },
    ];
    for (const probe of probes) {
      const res = await aio.inject(probe);
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.body).not.toContain(key);
    }
    const bad = await aio.inject(probes[0]!);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('Discord webhook message');
    const lines = aio.lines.slice(before);
    expect(lines.some((line) => line.includes('/discord/[REDACTED]'))).toBe(true);
    expect(lines.filter((line) => line.includes(key))).toEqual([]);
  });

  it('never wrote any client key to any log line during the whole run', () => {
    expect(aio.lines.filter((line) => line.includes(key))).toEqual([]);
  });
});

describe('access', () => {
  it('another tenant never sees the logs these clients sent', async () => {
    const res = await aio.inject({ method: 'GET', url: `/api/logs/my?serverId=${serverId}`, headers: bearer(otherToken) });
    expect(res.statusCode).toBe(404);
  });

  it('every compatible route answers 401 to an unknown key, in its own key place', async () => {
    const wrong = 'sk_wrong_key_0000000000000000';
    const calls = [
      { url: '/api/loki/api/v1/push', headers: { authorization: basic('u', wrong) }, payload: { streams: [] } },
      { url: '/api/v2/logs', headers: { 'dd-api-key': wrong }, payload: [] },
      { url: '/api/logs/batch', headers: { authorization: wrong }, payload: [] },
      { url: '/api/v3/logs', headers: { authorization: wrong }, payload: [] },
      { url: '/api/logs', headers: { authorization: wrong }, payload: {} },
      { url: '/api/image', headers: { authorization: wrong }, payload: {} },
      { url: '/api/v2/image', headers: { authorization: wrong }, payload: {} },
      { url: '/api/v3/file', headers: { authorization: wrong }, payload: {} },
      { url: '/api/v3/file/base64', headers: { authorization: wrong }, payload: {} },
      { url: `/api/discord/${wrong}/x`, headers: {}, payload: { content: 'x' } },
    ];
    for (const call of calls) {
      const res = await aio.inject({ method: 'POST', ...call });
      expect(res.statusCode, call.url).toBe(401);
    }
  });
});
