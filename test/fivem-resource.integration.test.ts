/**
 * The FiveM resource (integrations/fivem/skald) for real (issue 16): its Lua runs under Debian's lua5.4
 * in integrations/fivem/test/harness.lua, which stubs only FiveM's natives and performs PerformHttpRequest
 * as real HTTP (curl) against an all-in-one Skald started here. A fake player joins, chats, dies and
 * leaves; the logs are found through the logs API with their levels and prefixes. Also: one JSON array
 * per flush, bursts split at the batch size, the retry on 429 after the body's retryAfter, an outage
 * survived without loss, a full queue reported, and the key never printed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiLog, ApiLogList, PhotoLogPage } from '@skald/contracts/api';
import { api, createServer, registerAndLogin } from './support/api-client.ts';
import { eventually, freePort, REPO_ROOT, spawnSkald, waitForOk } from './support/processes.ts';
import type { SkaldProcess } from './support/processes.ts';

const HARNESS = join(REPO_ROOT, 'integrations', 'fivem', 'test', 'harness.lua');

function has(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
}

const missing = ['lua5.4', 'curl'].filter((command) => !has(command));
if (missing.length > 0) console.log(`skipped: ${missing.join(' and ')} missing (install Debian's lua5.4 and curl; .ci/run does)`);

interface HarnessRequest {
  readonly at: number;
  readonly path: string;
  readonly status: number;
  readonly count?: number;
  readonly keyInHeader: boolean;
  readonly keyInUrl: boolean;
}

interface HarnessResult {
  readonly requests: HarnessRequest[];
  readonly console: string[];
  readonly [key: string]: unknown;
}

let skald: SkaldProcess;
let dataDir: string;
let token: string;
let server: { id: string; api_key: string };

/** Runs a scenario of the harness; the key must appear nowhere in what the Lua side printed. */
function runHarness(scenario: string, env: Record<string, string>): HarnessResult {
  const run = spawnSync('lua5.4', [HARNESS, scenario], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8', timeout: 120_000 });
  const output = `${run.stdout}${run.stderr}`;
  if (run.status !== 0) throw new Error(`harness ${scenario} failed (${run.status}):\n${output}`);
  expect(output, 'the API key is never printed').not.toContain(env.SKALD_API_KEY ?? '<none>');
  const line = run.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`harness ${scenario} printed no RESULT:\n${output}`);
  return JSON.parse(line.slice('RESULT '.length)) as HarnessResult;
}

/** Every text log of the server, page by page (newest first). */
async function textLogs(serverId: string): Promise<ApiLog[]> {
  const all: ApiLog[] = [];
  for (let page = 1; ; page++) {
    const res = await api<ApiLogList>(skald.baseUrl, 'GET', `/api/logs/my?serverId=${serverId}&pageSize=250&page=${page}`, { token });
    expect(res.status).toBe(200);
    all.push(...res.body);
    if (res.body.length < 250) return all;
  }
}

describe.skipIf(missing.length > 0)('FiveM resource under lua5.4 against a running Skald', () => {
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'skald-fivem-'));
    skald = spawnSkald('all-in-one', await freePort(), { TARGET: 'all', DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
    await waitForOk(skald, '/api/health', 60_000);
    token = await registerAndLogin(skald.baseUrl, 'fivemowner');
    server = await createServer(skald.baseUrl, token, 'FiveM RP');
    // The new key reaches ingestion through the identity events: wait until it is accepted.
    await eventually('the API key accepted', async () => {
      const res = await api(skald.baseUrl, 'POST', '/api/logs', { headers: { 'x-api-key': server.api_key }, body: { message: 'warm-up', type: 'Setup' } });
      return res.status === 201 ? true : undefined;
    });
  }, 120_000);

  afterAll(async () => {
    await skald?.kill();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('logs join, chat, death and leave with the right levels and prefixes, batched, plus the export, the event and a screenshot', async () => {
    const result = runHarness('players', { SKALD_URL: `${skald.baseUrl}/`, SKALD_API_KEY: server.api_key });
    const logRequests = result.requests.filter((r) => r.path === '/api/logs');
    expect(result.beforeFlush, 'nothing is sent before the flush interval').toBe(0);
    expect(result.afterFirstFlush, 'the eight logs of the first interval go as one request').toBe(1);
    expect(logRequests[0]).toMatchObject({ status: 201, count: 8, keyInHeader: true, keyInUrl: false });
    // 250 logs at once: sent in arrays of at most 100 (Config.BatchSize) as soon as 100 wait.
    expect(logRequests.slice(1).map((r) => r.count)).toEqual([100, 100, 50]);
    expect(logRequests.every((r) => r.status === 201)).toBe(true);
    expect(result.queued).toBe(0);
    expect(result.screenshotStarted).toBe(true);
    expect(result.screenshotPlayer).toBe(1);
    expect(result.requests.find((r) => r.path === '/api/photologs')).toMatchObject({ status: 201, keyInHeader: true });

    const logs = await eventually('the resource logs stored', async () => {
      const all = await textLogs(server.id);
      return all.filter((l) => l.type !== 'Burst' && l.type !== 'Setup').length >= 8 && all.some((l) => l.type === 'Burst' && l.message === 'burst 250') ? all : undefined;
    });
    const byMessage = (start: string) => logs.filter((l) => l.message.startsWith(start));
    expect(byMessage('[JOIN] Ann Harness joined')).toMatchObject([{ level: 'info', type: 'Join', resource: 'skald', metadata: { playerId: 1, license: 'license:abc123' } }]);
    expect(byMessage('[JOIN] Bob Harness joined')).toHaveLength(1);
    expect(byMessage('Ann Harness: hello from the harness')).toMatchObject([{ level: 'info', type: 'Chat' }]);
    // The resource sends deaths at level 'warning', which Skald stores as warn (docs/DECISIONS.md).
    expect(byMessage('[DEATH] Ann Harness was killed by Bob Harness')).toMatchObject([{ level: 'warn', type: 'Death', metadata: { killerId: 2, weapon: 453432689 } }]);
    expect(byMessage('[DEATH] Bob Harness died')).toMatchObject([{ level: 'warn', type: 'Death' }]);
    expect(byMessage('[LEAVE] Ann Harness left the server (Exiting)')).toMatchObject([{ level: 'info', type: 'Leave' }]);
    expect(byMessage('Bank desync')).toMatchObject([{ level: 'error', type: 'Economy', resource: 'harness-bank', metadata: { account: 12 } }]);
    expect(byMessage('sent through the skald:log event')).toMatchObject([{ level: 'debug', type: 'Custom' }]);
    // Never the IP: only the identifiers Config.Identifiers names.
    expect(JSON.stringify(logs)).not.toContain('10.0.0.9');
    expect(logs.filter((l) => l.type === 'Burst')).toHaveLength(250);

    const photos = await api<PhotoLogPage>(skald.baseUrl, 'GET', `/api/photologs/my?serverId=${server.id}`, { token });
    expect(photos.body.photologs).toMatchObject([{ message: 'Screenshot of Ann', type: 'Screenshot', resource: 'harness-admin', metadata: { reason: 'report', playerId: 1 } }]);
  }, 120_000);

  it('keeps the batch on a 429 and sends it again only after the retryAfter of the body', async () => {
    const spent = await createServer(skald.baseUrl, token, 'Quota spent');
    const fill = Array.from({ length: 1000 }, (_, i) => ({ message: `fill ${i}` }));
    await eventually('the free tier quota spent', async () => {
      const res = await api(skald.baseUrl, 'POST', '/api/logs', { headers: { 'x-api-key': spent.api_key }, body: fill });
      return res.status === 201 ? true : undefined;
    });
    const result = runHarness('retry', { SKALD_URL: skald.baseUrl, SKALD_API_KEY: spent.api_key });
    expect(result.firstStatus).toBe(429);
    const delay = result.announcedDelay as number;
    expect(delay).toBeGreaterThanOrEqual(1);
    expect(delay).toBeLessThanOrEqual(3600);
    expect(result.requestsBeforeDelay, 'nothing is sent before the delay').toBe(1);
    expect(result.requestsAfterDelay, 'the batch is sent again after it').toBe(2);
    expect(result.retriedCount).toBe(3);
    expect(result.queued, 'the refused logs are still queued').toBe(3);
    expect(result.console.some((line) => line.includes('Skald answered 429 (Log limit reached'))).toBe(true);
  }, 120_000);

  it('survives an outage without losing a log, and says so when a full queue must drop the oldest', async () => {
    const closedPort = await freePort();
    const result = runHarness('outage', { SKALD_URL: skald.baseUrl, SKALD_DOWN_URL: `http://127.0.0.1:${closedPort}`, SKALD_API_KEY: server.api_key });
    expect(result.failedAttempts as number).toBeGreaterThanOrEqual(2);
    expect(result.requests.slice(0, result.failedAttempts as number).every((r) => r.status === 0)).toBe(true);
    expect(result.lastStatus).toBe(201);
    expect(result.queuedAfterRecovery).toBe(0);
    expect(result.queuedAfterOverflow).toBe(10);
    expect(result.console).toContain('^3[skald]^7 queue full (10 logs): dropped the 5 oldest');
    const logs = await eventually('the outage logs stored', async () => {
      const all = (await textLogs(server.id)).filter((l) => l.type === 'Outage');
      return all.length === 5 ? all : undefined;
    });
    expect(logs.map((l) => l.message).sort()).toEqual([1, 2, 3, 4, 5].map((i) => `during outage ${i}`));
  }, 120_000);
});
