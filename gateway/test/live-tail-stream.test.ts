/**
 * The live tail (GET /api/logs/tail) through the gateway in both forms: all-in-one (the logs
 * service mounted in the gateway) and proxy-only (the gateway proxying to the logs service). The stream
 * must arrive unbuffered and uncompressed even when the client accepts br and gzip, and the proxy must
 * not cut it at its upstream timeout: a log posted reaches the open tail after the stream sat idle past
 * UPSTREAM_TIMEOUT_MS. The log is posted to the all-in-one itself: through the proxy, whose upstream timeout
 * is that short on purpose, a POST answers 504 whenever the machine is loaded enough to take 300 ms over it. How soon it arrives (within a second, docs/LOGS_API.md) is a
 * speed target: the live-tail benchmark measures it, not this test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiLog } from '@skald/contracts';
import { loadConfig } from '@skald/config';
import { openEventStream } from '@skald/testing';
import type { EventStreamClient } from '@skald/testing';
import { buildGateway } from '../src/gateway-only.ts';
import type { RunningProcess } from '../src/launcher-app.ts';
import { startAllInOne } from './support/all-in-one.ts';
import type { AllInOne } from './support/all-in-one.ts';

const UPSTREAM_TIMEOUT_MS = 300;
let aio: AllInOne;
let aioBase: string;
let proxy: RunningProcess;
let proxyBase: string;
let token: string;
let server: { id: string; api_key: string };
const clients: EventStreamClient[] = [];

beforeAll(async () => {
  aio = await startAllInOne({ logLevel: 'silent' });
  aioBase = await aio.running.app.listen({ host: '127.0.0.1', port: 0 });
  ({ token } = await aio.signUp('tailer'));
  server = await aio.createServer(token, 'Tail Town');
  // The proxy-only gateway in front of the all-in-one's /api: every service it proxies to is real.
  const upstream = `${aioBase}/api`;
  proxy = await buildGateway(
    loadConfig({
      TARGET: 'gateway',
      SERVICE_URL_AUTH: upstream,
      SERVICE_URL_INGESTION: upstream,
      SERVICE_URL_LOGS: upstream,
      UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
      LOG_LEVEL: 'silent',
    }),
    { webDist: '/nonexistent' },
  );
  await proxy.start();
  proxyBase = await proxy.app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  for (const client of clients) client.close();
  await proxy.close();
  await aio.close();
});

async function postLog(message: string): Promise<void> {
  const response = await fetch(`${aioBase}/api/logs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': server.api_key },
    body: JSON.stringify({ message, level: 'warn', type: 'Stream', resource: 'gateway' }),
  });
  expect(response.status).toBe(201);
}

describe.each([
  ['all-in-one', () => aioBase],
  ['proxy-only', () => proxyBase],
])('live tail through the %s gateway', (_form, base) => {
  it('streams uncompressed and unbuffered, and outlives the upstream timeout', async () => {
    const client = await openEventStream(`${base()}/api/logs/tail?serverId=${server.id}&level=warn`, {
      authorization: `Bearer ${token}`,
      'accept-encoding': 'br, gzip',
    });
    clients.push(client);
    expect(client.status).toBe(200);
    expect(client.headers.get('content-type')).toBe('text/event-stream');
    expect(client.headers.get('content-encoding')).toBeNull();
    await client.waitForEvent((e) => e.event === 'ready', 'ready');
    await new Promise((resolve) => setTimeout(resolve, UPSTREAM_TIMEOUT_MS * 3));
    expect(client.ended()).toBe(false);
    const message = `through ${_form}`;
    await postLog(message);
    // The default bound: the latency target lives in scripts/bench/benchmarks/live-tail.bench.ts.
    const event = await client.waitForEvent((e) => e.event === 'log' && (JSON.parse(e.data) as ApiLog).message === message, 'the posted log');
    expect(event.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
  });
});
