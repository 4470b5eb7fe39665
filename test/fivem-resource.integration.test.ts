/**
 * The FiveM resource (integrations/fivem/skald) for real: its Lua runs under Debian's lua5.4 in a stub
 * FXServer (integrations/fivem/test/fxserver.lua) that stubs only FiveM's natives, enforces FXServer's
 * net-safety rule for client events, and performs PerformHttpRequest as real HTTP (curl) against an
 * all-in-one Skald started here. Fake players join, chat, die (as baseevents' clients report it) and leave;
 * txAdmin acts on them; other resources call the exports (Skald's and Fivemanage's names) and take
 * screenshots. What arrives is read back through the logs API: type, level, message, metadata with
 * identifiers (never the IP unless the convar says so). Also: one JSON array per flush, bursts split at
 * the batch size, the retry on 429 after the body's retryAfter, an outage survived without loss, a full
 * queue reported, the key never printed, and each log's own time (`timestamp`), which a Skald that does
 * not know the field gets without.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { TIERS } from '@skald/contracts';
import { closedPort } from '@skald/testing';
import type { ApiLog, PhotoLogPage } from '@skald/contracts/api';
// The players view's grouping: the resource's metadata must name each player apart, and only them.
import { extractPlayers } from '../services/logs/src/domain/identity/extract-players.ts';
import { api } from './support/api-client.ts';
import { eventually, REPO_ROOT } from './support/processes.ts';
import type { SkaldProcess } from './support/processes.ts';
import { oneLog, startGameSkald } from './support/game-skald.ts';
import type { GameSkald } from './support/game-skald.ts';

const HARNESS = join(REPO_ROOT, 'integrations', 'fivem', 'test', 'harness.lua');

function has(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
}

const missing = ['lua5.4', 'curl'].filter((command) => !has(command));
if (missing.length > 0) console.log(`skipped: ${missing.join(' and ')} missing (install Debian's lua5.4 and curl; .ci/run does)`);

interface SentLog {
  readonly message: string;
  readonly timestamp: string | false;
}

interface HarnessRequest {
  readonly at: number;
  readonly path: string;
  readonly status: number;
  readonly count?: number;
  /** JSON batches: each log's message and time as sent. */
  readonly sent?: SentLog[];
  /** Photo uploads: the multipart fields. */
  readonly message?: string | false;
  readonly timestamp?: string | false;
  readonly keyInHeader: boolean;
  readonly keyInUrl: boolean;
}

interface HarnessResult {
  readonly requests: HarnessRequest[];
  readonly console: string[];
  readonly [key: string]: unknown;
}

/** The identifiers FiveM gives the harness's players, as the resource must send them (no ip). */
const ANN_IDS = ['license:abc123', 'license2:abc999', 'discord:111', 'steam:110000100000001', 'fivem:4242', 'xbl:2535', 'live:9876'];
const BOB_IDS = ['license:def456', 'discord:222'];
const CAT_IDS = ['license:ghi789'];
const ANN = { name: 'Ann Harness', serverId: 1, identifiers: ANN_IDS };
const BOB = { name: 'Bob Harness', serverId: 2, identifiers: BOB_IDS };
const FREE_LOGS_PER_HOUR = TIERS.find((tier) => tier.key === 'free')?.limit ?? 0;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The players Skald's players view finds in a stored log: identifiers and names (players in name order: key order is no order). */
function playersIn(log: ApiLog): { linking: readonly string[]; names: readonly string[] }[] {
  return extractPlayers(log.message, log.metadata ?? null)
    .map((player) => ({ linking: player.linking, names: player.names }))
    .sort((a, b) => (a.names[0] ?? '').localeCompare(b.names[0] ?? ''));
}

/**
 * Runs a scenario of the harness (asynchronously: a fake Skald in this process must go on answering); the
 * key must appear nowhere in what the Lua side printed.
 */
async function runHarness(scenario: string, env: Record<string, string>): Promise<HarnessResult> {
  const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
    const child = spawn('lua5.4', [HARNESS, scenario], { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 120_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
  const output = `${run.stdout}${run.stderr}`;
  if (run.code !== 0) throw new Error(`harness ${scenario} failed (${run.code}):\n${output}`);
  expect(output, 'the API key is never printed').not.toContain(env.SKALD_API_KEY ?? '<none>');
  const line = run.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`harness ${scenario} printed no RESULT:\n${output}`);
  return JSON.parse(line.slice('RESULT '.length)) as HarnessResult;
}

const logRequestsOf = (result: HarnessResult) => result.requests.filter((r) => r.path.endsWith('/api/logs'));
const photoRequestsOf = (result: HarnessResult) => result.requests.filter((r) => r.path.endsWith('/api/photologs'));

describe.skipIf(missing.length > 0)('FiveM resource under lua5.4 against a running Skald', () => {
  let game: GameSkald;
  let skald: SkaldProcess;
  let token: string;

  function harnessEnv(apiKey: string): Record<string, string> {
    return { SKALD_URL: `${skald.baseUrl}/`, SKALD_API_KEY: apiKey };
  }

  /** Each stored log's time is the time the resource sent with it. */
  function expectOwnTimes(logs: readonly ApiLog[], requests: readonly HarnessRequest[]): void {
    const sent = requests.flatMap((r) => (r.status === 201 ? (r.sent ?? []) : []));
    expect(sent.length).toBeGreaterThan(0);
    for (const log of sent) {
      expect(log.timestamp, `${log.message} carries its time`).toMatch(ISO_MS);
      const stored = logs.find((l) => l.message === log.message);
      if (stored) expect(Date.parse(stored.created_at), `${log.message}: stored at the time it happened`).toBe(Date.parse(log.timestamp as string));
    }
  }

  beforeAll(async () => {
    game = await startGameSkald('fivem');
    ({ skald, token } = game);
    // The resource sends each log's time (Config.SendTimestamp, on by default) and this Skald takes it; the
    // resource dropping it for a Skald that refuses the field is tested below with a fake older Skald.
    const probe = await game.readyServer('Timestamp probe');
    const res = await api<{ field?: string }>(skald.baseUrl, 'POST', '/api/logs', {
      headers: { 'x-api-key': probe.api_key },
      body: [{ message: 'timestamp probe', type: 'Setup', timestamp: new Date().toISOString() }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }, 600_000); // starts the all-in-one (bound by its own CPU, START_BOUNDS: minutes of wall time at load 25) and the Lua harness

  afterAll(async () => {
    await game?.stop();
  });

  it('logs joins, chat, deaths and leaves with identifiers, the exports (Skald and fmsdk names), batched, and a screenshot', async () => {
    const server = await game.readyServer('FiveM RP');
    const result = await runHarness('players', harnessEnv(server.api_key));
    const logRequests = logRequestsOf(result);
    expect(result.beforeFlush, 'nothing is sent before the flush interval').toBe(0);
    expect(result.afterFirstFlush, 'the fifteen logs of the first interval go as one request').toBe(1);
    expect(logRequests[0]).toMatchObject({ status: 201, count: 15, keyInHeader: true, keyInUrl: false });
    // 250 logs at once: sent in arrays of at most 100 (Config.BatchSize) as soon as 100 wait.
    expect(logRequests.slice(1).map((r) => r.count)).toEqual([100, 100, 50]);
    expect(logRequests.every((r) => r.status === 201)).toBe(true);
    expect(result.queued).toBe(0);
    expect(result.console.filter((line) => line.includes('not safe for net')), 'baseevents\' client events reach the resource').toEqual([]);
    // Every export the manifest lists is registered, and no other.
    expect([...(result.manifestExports as string[])].sort()).toEqual(result.registeredExports);
    expect(result.registeredExports).toEqual(['Error', 'Info', 'Log', 'LogMessage', 'Warn', 'log', 'screenshot']);
    expect(result.screenshotStarted).toBe(true);
    expect(result.screenshotPlayer).toBe(2);
    expect(photoRequestsOf(result)).toMatchObject([{ status: 201, keyInHeader: true }]);

    const logs = await eventually('the resource logs stored', async () => {
      const all = await game.textLogs(server.id);
      return all.filter((l) => l.type !== 'Burst').length >= 15 && all.filter((l) => l.type === 'Burst').length === 250 ? all : undefined;
    });
    expect(oneLog(logs, '[JOIN] Ann Harness joined the server')).toMatchObject({ level: 'info', type: 'Join', resource: 'skald', metadata: { player: ANN } });
    expect(oneLog(logs, '[JOIN] Bob Harness joined the server').metadata).toEqual({ player: BOB });
    expect(oneLog(logs, 'Ann Harness: hello from the harness')).toMatchObject({ level: 'info', type: 'Chat', metadata: { player: ANN } });
    // Deaths come from the dying player's client; the resource sends them at level 'warning', which Skald stores as warn.
    expect(oneLog(logs, '[DEATH] Ann Harness was killed by Bob Harness (WEAPON_PISTOL)')).toMatchObject({ level: 'warn', type: 'Death', resource: 'skald' });
    expect(oneLog(logs, '[DEATH] Ann Harness was killed by Bob Harness (WEAPON_PISTOL)').metadata).toEqual({
      victim: ANN,
      killer: BOB,
      cause: 'player',
      weapon: 'WEAPON_PISTOL',
      weaponHash: 453432689,
      killerType: 4,
      killerVehicle: { model: 'ADDER', seat: -1 },
      position: { x: 101.5, y: -20.25, z: 30.13 },
    });
    // Victim and killer are two players, each with only their own identifiers and name.
    expect(playersIn(oneLog(logs, '[DEATH] Ann Harness was killed by Bob Harness (WEAPON_PISTOL)'))).toEqual([
      { linking: ANN_IDS, names: ['Ann Harness'] },
      { linking: BOB_IDS, names: ['Bob Harness'] },
    ]);
    expect(playersIn(oneLog(logs, '[JOIN] Ann Harness joined the server'))).toEqual([{ linking: ANN_IDS, names: ['Ann Harness'] }]);
    expect(oneLog(logs, '[DEATH] Bob Harness died')).toMatchObject({ level: 'warn', type: 'Death', metadata: { victim: BOB, cause: 'none', killerType: 0, position: { x: 1, y: 2, z: 3 } } });
    const byAnimal = oneLog(logs, '[DEATH] Bob Harness was killed (WEAPON_ANIMAL)');
    expect(byAnimal.metadata).toMatchObject({ victim: BOB, cause: 'other', weapon: 'WEAPON_ANIMAL', weaponHash: -100946242, killerType: 28 });
    expect(byAnimal.metadata).not.toHaveProperty('killer');
    expect(oneLog(logs, '[LEAVE] Ann Harness left the server (Exiting)')).toMatchObject({ level: 'info', type: 'Leave', metadata: { player: ANN, reason: 'Exiting' } });
    // exports.skald:log(level, message, metadata, type), and the first release's (level, type, message, metadata).
    expect(oneLog(logs, 'Bank desync on account 12')).toMatchObject({ level: 'error', type: 'Economy', resource: 'harness-bank', metadata: { account: 12 } });
    expect(oneLog(logs, 'first-release argument order')).toMatchObject({ level: 'warn', type: 'Legacy', resource: 'harness-legacy', metadata: { v: 1 } });
    expect(oneLog(logs, 'sent through the skald:log event')).toMatchObject({ level: 'debug', type: 'Custom' });
    // Fivemanage fmsdk's names: the dataset is the type ('default' is none), playerSource/targetSource become players.
    const logMessage = oneLog(logs, 'fmsdk LogMessage');
    expect(logMessage).toMatchObject({ level: 'info', type: 'General', resource: 'harness-fm', metadata: { player: BOB } });
    expect(logMessage.metadata).not.toHaveProperty('playerSource');
    expect(oneLog(logs, 'fmsdk Log to the bank dataset')).toMatchObject({ level: 'warn', type: 'bank', resource: 'harness-fm', metadata: { amount: 5 } });
    expect(oneLog(logs, 'fmsdk Info')).toMatchObject({ level: 'info', type: 'General', resource: 'harness-fm' });
    expect(oneLog(logs, 'fmsdk Warn')).toMatchObject({ level: 'warn', type: 'anticheat', metadata: { target: BOB } });
    expect(oneLog(logs, 'fmsdk Error')).toMatchObject({ level: 'error', type: 'General' });
    // Never the IP without the convar.
    expect(JSON.stringify(logs)).not.toContain('10.0.0.');
    expect(JSON.stringify(logs)).not.toContain('ip:');
    expectOwnTimes(logs, logRequests);

    const photos = await api<PhotoLogPage>(skald.baseUrl, 'GET', `/api/photologs/my?serverId=${server.id}`, { token });
    expect(photos.body.photologs).toMatchObject([{ message: 'Screenshot of Bob', level: 'info', type: 'Screenshot', resource: 'harness-admin', metadata: { reason: 'report', player: BOB } }]);
  }, 120_000); // runs the resource under lua5.4 through several batches

  it('enforces FXServer\'s net-safety: client events the resource did not register are dropped; deaths arrive, a flood is capped', async () => {
    const server = await game.readyServer('Net safety');
    const result = await runHarness('netsafety', harnessEnv(server.api_key));
    // A client cannot write logs, fake a txAdmin ban or chat through the resource's server-side events.
    expect(result.console).toEqual(
      expect.arrayContaining(['event skald:log was not safe for net', 'event txAdmin:events:playerBanned was not safe for net', 'event chatMessage was not safe for net']),
    );
    expect(result.queuedAfterForgeries).toBe(0);
    expect(result.console.filter((line) => line.includes('baseevents') && line.includes('not safe for net'))).toEqual([]);
    // Fifteen deaths in a minute: ten logged, the console says so once; the next minute counts afresh
    // (the ten were sent meanwhile).
    expect(result.queuedAfterFlood).toBe(10);
    expect(result.queuedAfterAMinute).toBe(1);
    expect(result.console.filter((line) => line.includes('player 3 reported more than 10 deaths in a minute'))).toHaveLength(1);
    expect(result.console).toContain('^3[skald]^7 deaths are reported by the baseevents resource, which is not started: add `ensure baseevents` to server.cfg');
    expect(result.queued).toBe(0);
    const logs = await game.storedLogs(server.id, 11);
    expect(logs.filter((l) => l.message === '[DEATH] Cat Harness died')).toHaveLength(10);
    expect(oneLog(logs, '[DEATH] Cat Harness was killed by Ann Harness (WEAPON_UNARMED)').metadata).toMatchObject({
      victim: { name: 'Cat Harness', serverId: 3, identifiers: CAT_IDS },
      killer: ANN,
      cause: 'player',
    });
    expect(JSON.stringify(logs)).not.toContain('forged');
  }, 120_000); // runs the resource under lua5.4

  it('logs txAdmin\'s events with the admin\'s name and the target\'s identifiers', async () => {
    const server = await game.readyServer('txAdmin');
    const result = await runHarness('txadmin', harnessEnv(server.api_key));
    expect(result.requestsBeforeShutdown).toBe(0);
    expect(result.requestsRightAfterShutdown, 'the shutdown announcement sends what waits at once').toBe(1);
    expect(logRequestsOf(result).every((r) => r.status === 201)).toBe(true);
    expect(result.queued).toBe(0);
    const logs = await game.storedLogs(server.id, 17);
    expect(logs).toHaveLength(17);
    const admin = { username: 'AdminAl' };
    const ban = oneLog(logs, '[BAN] AdminAl banned Ann Harness (2 days): cheating');
    expect(ban).toMatchObject({ level: 'warn', type: 'Ban', resource: 'skald' });
    expect(ban.metadata).toEqual({
      event: 'txAdmin:events:playerBanned',
      admin,
      target: ANN,
      reason: 'cheating',
      actionId: 'BXXX-1234',
      duration: '2 days',
      permanent: false,
      expiresAt: '2030-03-17T17:46:40Z',
    });
    // The banned player is the log's one player; the admin's name is not taken for one of theirs.
    expect(playersIn(ban)).toEqual([{ linking: ANN_IDS, names: ['Ann Harness'] }]);
    expect(oneLog(logs, '[BAN] AdminAl banned Offline Olly (permanent): alt account').metadata).toMatchObject({
      admin,
      target: { name: 'Offline Olly', identifiers: ['license:offline1', 'steam:110000100000099'] },
      permanent: true,
    });
    expect(oneLog(logs, '[WARN] AdminAl warned Bob Harness: RDM')).toMatchObject({ level: 'warn', type: 'AdminWarning', metadata: { admin, target: BOB, reason: 'RDM', actionId: 'WAAA-0001' } });
    expect(oneLog(logs, '[KICK] AdminAl kicked Bob Harness: AFK')).toMatchObject({ level: 'warn', type: 'Kick', metadata: { admin, target: BOB, reason: 'AFK' } });
    expect(oneLog(logs, '[KICK] txAdmin kicked every player: restart')).toMatchObject({ type: 'Kick', metadata: { admin: { username: 'txAdmin' }, everyone: true } });
    expect(oneLog(logs, '[HEAL] AdminAl healed Bob Harness')).toMatchObject({ level: 'info', type: 'Heal', metadata: { admin, target: BOB } });
    expect(oneLog(logs, '[HEAL] AdminAl healed every player')).toMatchObject({ type: 'Heal', metadata: { everyone: true } });
    expect(oneLog(logs, '[DM] AdminAl to Ann Harness: please stop')).toMatchObject({ level: 'info', type: 'DirectMessage', metadata: { admin, target: ANN, text: 'please stop' } });
    expect(oneLog(logs, '[WHITELIST] AdminAl whitelisted Newbie Ned')).toMatchObject({ type: 'Whitelist', metadata: { admin, target: { name: 'Newbie Ned', identifiers: ['license:new1'] }, action: 'added' } });
    expect(oneLog(logs, '[WHITELIST] AdminAl pre-approved discord:333 (Pre Pat)')).toMatchObject({ metadata: { target: { name: 'Pre Pat', identifiers: ['discord:333'] } } });
    expect(oneLog(logs, '[WHITELIST] Req Rae asked to be whitelisted (R1234)')).toMatchObject({ metadata: { target: { name: 'Req Rae', identifiers: ['license:req1'] }, requestId: 'R1234' } });
    expect(oneLog(logs, '[WHITELIST] AdminAl denied every whitelist request').metadata).toMatchObject({ admin, action: 'deniedAll' });
    expect(oneLog(logs, '[REVOKE] AdminBea revoked the ban BYYY-5678 of Offline Olly')).toMatchObject({
      type: 'Revoke',
      metadata: { admin: { username: 'AdminBea' }, target: { name: 'Offline Olly', identifiers: ['license:offline1'] }, issuedBy: 'AdminAl', reason: 'alt account' },
    });
    expect(oneLog(logs, '[ANNOUNCEMENT] AdminAl: Server event at 8')).toMatchObject({ level: 'info', type: 'Announcement', metadata: { admin } });
    expect(oneLog(logs, '[RESTART] scheduled restart in 30 minutes')).toMatchObject({ level: 'info', type: 'Restart', metadata: { secondsRemaining: 1800 } });
    expect(oneLog(logs, '[RESTART] AdminAl skipped the scheduled restart due in 10 minutes')).toMatchObject({ type: 'Restart', metadata: { admin } });
    expect(oneLog(logs, '[SHUTDOWN] AdminAl shuts the server down in 5 seconds: maintenance')).toMatchObject({ level: 'warn', type: 'Shutdown', metadata: { admin, delayMs: 5000 } });
    expect(JSON.stringify(logs)).not.toContain('10.0.0.');
    expect(JSON.stringify(logs), 'hardware ids are not identifiers the resource sends').not.toContain('2:abcd');
  }, 120_000); // runs the resource under lua5.4

  it('takes screenshots through screencapture or screenshot-basic, and says so when neither runs', async () => {
    const server = await game.readyServer('Screenshots');
    const result = await runHarness('screenshots', harnessEnv(server.api_key));
    expect(result.none).toBe(false);
    expect(result.console).toContain('^3[skald]^7 no screenshot: neither screenshot-basic nor screencapture is started (ensure one of them in server.cfg)');
    expect(result.basic).toBe(true);
    expect(result.legacy).toBe(true);
    expect(result.basicOptions).toMatchObject({ encoding: 'jpg' });
    // screencapture, when it runs, is preferred: screenshot-basic was asked only before it started.
    expect(result.capture).toBe(true);
    expect(result.calls).toEqual({ basic: 2, capture: 1 });
    expect(result).toMatchObject({ capturePlayer: 2, captureOptions: { encoding: 'jpg' }, captureDataType: 'base64' });
    expect(result.offline).toBe(false);
    expect(result.console).toContain('^3[skald]^7 no screenshot: player 99 is not connected');
    expect(photoRequestsOf(result).map((r) => r.status)).toEqual([201, 201, 201]);
    const photos = await eventually('three photo logs', async () => {
      const res = await api<PhotoLogPage>(skald.baseUrl, 'GET', `/api/photologs/my?serverId=${server.id}`, { token });
      return res.body.photologs.length === 3 ? res.body.photologs : undefined;
    });
    const photo = (message: string) => photos.find((p) => p.message === message);
    expect(photo('Screenshot through screenshot-basic')).toMatchObject({ level: 'info', type: 'Screenshot', resource: 'harness-admin', metadata: { reason: 'report', player: BOB } });
    expect(photo('Legacy screenshot call')).toMatchObject({ level: 'warn', type: 'Evidence', metadata: { case: 7, player: BOB } });
    expect(photo('Screenshot through screencapture')).toMatchObject({ type: 'Screenshot', metadata: { reason: 'report', player: BOB } });
    expect(photo('Screenshot through screencapture')?.metadata).not.toHaveProperty('playerSource');
  }, 120_000); // runs the resource under lua5.4

  it('sends ip identifiers only when the convar skald_log_ip is true', async () => {
    const server = await game.readyServer('IP on');
    await runHarness('ip', harnessEnv(server.api_key));
    const logs = await game.storedLogs(server.id, 1);
    expect(oneLog(logs, '[JOIN] Ann Harness joined the server').metadata).toEqual({ player: { ...ANN, identifiers: [...ANN_IDS, 'ip:10.0.0.9'] } });
  }, 120_000); // runs the resource under lua5.4

  it('keeps the batch on a 429 and sends it again only after the retryAfter of the body', async () => {
    const spent = await game.readyServer('Quota spent');
    // The free tier's hourly quota, less the warm-up log readyServer sent.
    const fill = Array.from({ length: FREE_LOGS_PER_HOUR - 1 }, (_, i) => ({ message: `fill ${i}` }));
    await eventually('the free tier quota spent', async () => {
      const res = await api(skald.baseUrl, 'POST', '/api/logs', { headers: { 'x-api-key': spent.api_key }, body: fill });
      return res.status === 201 ? true : undefined;
    });
    const result = await runHarness('retry', harnessEnv(spent.api_key));
    expect(result.firstStatus).toBe(429);
    const delay = result.announcedDelay as number;
    expect(delay).toBeGreaterThanOrEqual(1);
    expect(delay).toBeLessThanOrEqual(3600);
    expect(result.requestsBeforeDelay, 'nothing is sent before the delay').toBe(1);
    expect(result.requestsAfterDelay, 'the batch is sent again after it').toBe(2);
    expect(result.retriedCount).toBe(3);
    expect(result.queued, 'the refused logs are still queued').toBe(3);
    expect(result.console.some((line) => line.includes('Skald answered 429 (Log limit reached'))).toBe(true);
  }, 120_000); // waits out the body's retryAfter

  it('survives an outage without losing a log, and says so when a full queue must drop the oldest', async () => {
    const server = await game.readyServer('Outage');
    // A Skald that is down refuses connections, and a listener of the test's own would accept them: a port
    // nobody listens on, free right before the harness uses it (only another bind of port 0 in the seconds
    // after could take it, and the kernel spreads those).
    const down = await closedPort();
    const result = await runHarness('outage', { ...harnessEnv(server.api_key), SKALD_URL: skald.baseUrl, SKALD_DOWN_URL: `http://127.0.0.1:${down}` });
    expect(result.failedAttempts as number).toBeGreaterThanOrEqual(2);
    expect(result.requests.slice(0, result.failedAttempts as number).every((r) => r.status === 0)).toBe(true);
    expect(result.lastStatus).toBe(201);
    expect(result.queuedAfterRecovery).toBe(0);
    expect(result.queuedAfterOverflow).toBe(10);
    expect(result.console).toContain('^3[skald]^7 queue full (10 logs): dropped the 5 oldest');
    const logs = await game.storedLogs(server.id, 5);
    expect(logs.map((l) => l.message).sort()).toEqual([1, 2, 3, 4, 5].map((i) => `during outage ${i}`));
    expectOwnTimes(logs, logRequestsOf(result));
  }, 120_000); // an outage, then the queue drained after it
});

/**
 * A Skald as the resource may meet one: `/old/` refuses `timestamp` as a field it does not know (Skald's
 * answer before the field existed), `/value/` refuses the time of a log whose message says 'bad time',
 * `/busy/` answers its first batch 429 with retryAfter 2. Each answers the way Skald's ingestion does.
 */
async function startFakeSkald(): Promise<{ url: string; close: () => Promise<void> }> {
  let busyAnswered = false;
  const refusal = (field: string, reason: string) => ({ error: `Invalid field '${field}': ${reason}`, message: `Invalid field '${field}': ${reason}`, field });
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = (status: number, body: object) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const path = req.url ?? '';
      const body = Buffer.concat(chunks).toString('latin1');
      if (path.endsWith('/api/photologs')) {
        if (path.startsWith('/old/') && body.includes('name="timestamp"')) return answer(400, refusal('timestamp', 'is not an allowed field'));
        return answer(201, { id: 'photo-1' });
      }
      const logs = JSON.parse(body) as { message: string; timestamp?: string }[];
      const withTime = logs.findIndex((l) => l.timestamp !== undefined);
      if (path.startsWith('/old/') && withTime >= 0) return answer(400, refusal(`[${withTime}].timestamp`, 'is not an allowed field'));
      const badTime = logs.findIndex((l) => l.timestamp !== undefined && l.message.includes('bad time'));
      if (path.startsWith('/value/') && badTime >= 0) return answer(400, refusal(`[${badTime}].timestamp`, 'must be an ISO 8601 UTC time or epoch milliseconds'));
      if (path.startsWith('/busy/') && !busyAnswered) {
        busyAnswered = true;
        return answer(429, { error: 'Log limit reached', message: 'Log limit reached', retryAfter: 2 });
      }
      return answer(201, { ids: logs.map((_, i) => `log-${i}`) });
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((done) => server.close(() => done())) };
}

describe.skipIf(missing.length > 0)('FiveM resource: each log\'s own time (timestamp)', () => {
  let fake: Awaited<ReturnType<typeof startFakeSkald>>;
  const KEY = 'fake-key-never-printed';
  const started = Date.now();
  const env = (prefix: string) => ({ SKALD_URL: `${fake.url}/${prefix}`, SKALD_API_KEY: KEY });
  /** A time the resource sent: ISO 8601 UTC with milliseconds, within the wall clock of this test's run. */
  const expectNowish = (timestamp: string | false | undefined) => {
    expect(timestamp).toMatch(ISO_MS);
    const ms = Date.parse(timestamp as string);
    expect(ms).toBeGreaterThanOrEqual(started - 1000);
    expect(ms).toBeLessThanOrEqual(Date.now() + 1000);
  };

  beforeAll(async () => {
    fake = await startFakeSkald();
  });

  afterAll(async () => {
    await fake?.close();
  });

  it('sends the time a log was made, and the same time again when the batch is retried', async () => {
    const result = await runHarness('retry', env('busy'));
    const [first, again] = logRequestsOf(result);
    expect(first).toMatchObject({ status: 429, count: 3 });
    expect(again).toMatchObject({ status: 201, count: 3 });
    for (const log of first!.sent!) expectNowish(log.timestamp);
    expect(again!.sent).toEqual(first!.sent);
  });

  it('sends a batch again at once without times to a Skald that does not know the field, and no time after', async () => {
    const result = await runHarness('oldSkaldLogs', env('old'));
    const requests = logRequestsOf(result);
    expect(requests.map((r) => [r.status, r.count])).toEqual([[400, 3], [201, 3], [201, 1]]);
    for (const log of requests[0]!.sent!) expectNowish(log.timestamp);
    expect(requests.slice(1).flatMap((r) => r.sent!.map((l) => l.timestamp))).toEqual([false, false, false, false]);
    expect(result.console.filter((line) => line.includes('does not take the time a log happened'))).toHaveLength(1);
    expect(result.queued).toBe(0);
  });

  it('uploads a photo again without its time to a Skald that does not know the field', async () => {
    const result = await runHarness('oldSkaldPhoto', env('old'));
    const [refused, accepted] = photoRequestsOf(result);
    expect(refused).toMatchObject({ status: 400, message: 'photo for an older Skald' });
    expectNowish(refused!.timestamp);
    expect(accepted).toMatchObject({ status: 201, message: 'photo for an older Skald', timestamp: false });
  });

  it('sends a batch whose time Skald refuses again without times, and keeps sending times', async () => {
    const result = await runHarness('badTime', env('value'));
    const requests = logRequestsOf(result);
    expect(requests.map((r) => [r.status, r.count])).toEqual([[400, 2], [201, 2], [201, 1]]);
    expect(requests[1]!.sent!.map((l) => l.timestamp)).toEqual([false, false]);
    expectNowish(requests[2]!.sent![0]!.timestamp);
    expect(result.console.some((line) => line.includes('Skald refused the time of a log'))).toBe(true);
  });
});
