/**
 * A body over the limit gets a 413 the client can READ: the answer closes the
 * connection, and it used to close it while the client was still sending, so the client's next write met
 * a closed socket (EPIPE) or the unread bytes made the kernel reset it (ECONNRESET) before the 413 was
 * read. Raw sockets (node:net), as a game plugin's HTTP client would see it, through the all-in-one
 * process and through the ingestion service running alone, with a declared length and chunked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@skald/config';
import { createSharedAdapters } from '@skald/adapters';
import type { SharedAdapters } from '@skald/adapters';
import { ApiKeyRotatedEvent, hashApiKey, publishEvent, ServerCreatedEvent } from '@skald/contracts';
import type { FastifyInstance } from 'fastify';
import { EMBEDDED_ADAPTERS_ENV, waitFor } from '@skald/testing';
import { buildSingleService } from '../src/single-service.ts';
import type { RunningProcess } from '../src/launcher-app.ts';
import { startAllInOne } from './support/all-in-one.ts';
import type { AllInOne } from './support/all-in-one.ts';

/** POST /logs takes at most 5 MiB; this is well over it. */
const OVERSIZED = 6 * 1024 * 1024;
const TRIES = 20;

interface RawAnswer {
  /** The socket failed (EPIPE, ECONNRESET, ...) before the client had sent and read everything. */
  readonly socketError: string | null;
  readonly status: number;
  /** The body arrived as long as its Content-Length says. */
  readonly complete: boolean;
  readonly body: string;
}

function parseAnswer(raw: Buffer, socketError: string | null): RawAnswer {
  const text = raw.toString('latin1');
  const headEnd = text.indexOf('\r\n\r\n');
  if (headEnd < 0) return { socketError, status: 0, complete: false, body: '' };
  const [statusLine, ...headerLines] = text.slice(0, headEnd).split('\r\n');
  const length = headerLines.find((line) => /^content-length:/i.test(line))?.split(':')[1]?.trim();
  const body = text.slice(headEnd + 4);
  return { socketError, status: Number(statusLine!.split(' ')[1]), complete: length !== undefined && body.length === Number(length), body };
}

/** Sends `size` bytes of JSON-ish body in 64 KiB writes, as a client that never reads before it finished sending. */
function postOversized(port: number, path: string, apiKey: string, size: number, chunked: boolean): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let socketError: string | null = null;
    socket.on('data', (data: Buffer) => received.push(data));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      socketError = error.code ?? error.message;
    });
    socket.on('close', () => resolve(parseAnswer(Buffer.concat(received), socketError)));
    socket.on('connect', () => {
      void (async () => {
        const framing = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${size}`;
        socket.write(`POST ${path} HTTP/1.1\r\nHost: test\r\nX-API-Key: ${apiKey}\r\nContent-Type: application/json\r\n${framing}\r\n\r\n`);
        const block = Buffer.alloc(64 * 1024, 0x20);
        for (let sent = 0; sent < size && !socket.destroyed; sent += block.length) {
          const part = block.subarray(0, Math.min(block.length, size - sent));
          const data = chunked ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]) : part;
          if (!socket.write(data)) await new Promise((drained) => socket.once('drain', drained));
        }
        if (chunked && !socket.destroyed) socket.write('0\r\n\r\n');
        // Half-close: the server may still answer; 'close' fires once it closed its side too.
        if (!socket.destroyed) socket.end();
      })();
    });
  });
}

async function listen(app: FastifyInstance): Promise<number> {
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return Number(new URL(address).port);
}

async function expectReadable413s(port: number, path: string, apiKey: string): Promise<void> {
  for (const chunked of [false, true]) {
    const answers: RawAnswer[] = [];
    for (let i = 0; i < TRIES; i++) answers.push(await postOversized(port, path, apiKey, OVERSIZED, chunked));
    const readable = answers.filter((a) => a.socketError === null && a.status === 413 && a.complete);
    expect(readable.length, `${chunked ? 'chunked' : 'content-length'}: ${JSON.stringify(answers.filter((a) => !readable.includes(a)).slice(0, 3))}`).toBe(TRIES);
    for (const answer of readable) expect(JSON.parse(answer.body)).toEqual({ error: 'Request body is too large', message: 'Request body is too large' });
  }
}

describe('an oversized POST /logs body gets a readable 413', () => {
  describe('through the all-in-one process', () => {
    let aio: AllInOne;
    let port: number;
    let apiKey: string;
    beforeAll(async () => {
      aio = await startAllInOne({ logLevel: 'warn' });
      const owner = await aio.signUp('oversized_owner');
      apiKey = (await aio.createServer(owner.token, 'Oversized')).api_key;
      await waitFor(async () => (await aio.inject({ method: 'POST', url: '/api/logs', headers: { 'x-api-key': apiKey }, payload: [] })).statusCode !== 401, 'the new key');
      port = await listen(aio.running.app);
    }, 60_000); // starts the all-in-one before the tries
    afterAll(async () => {
      await aio?.close();
    });

    it(`${TRIES} of ${TRIES} tries, with a declared length and chunked`, async () => {
      await expectReadable413s(port, '/api/logs', apiKey);
    }, 120_000); // TRIES uploads over the limit, each streamed in full
  });

  describe('through the ingestion service alone', () => {
    const apiKey = 'sk_oversized_single_0123456789';
    let dir: string;
    let running: RunningProcess;
    let port: number;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'skald-oversized-'));
      let shared: SharedAdapters | undefined;
      const publicKeyFile = join(dir, 'jwt-public.pem');
      writeFileSync(publicKeyFile, generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }));
      // The embedded adapters, so the service runs alone in this process.
      const config = loadConfig({
        TARGET: 'ingestion',
        DATA_DIR: join(dir, 'data'),
        LOG_LEVEL: 'warn',
        ...EMBEDDED_ADAPTERS_ENV,
        JWT_PUBLIC_KEY_FILE: publicKeyFile,
        SECRETS_KEY: randomBytes(32).toString('base64'),
      });
      running = await buildSingleService(config, 'ingestion', {
        createAdapters: async (...args) => (shared = await createSharedAdapters(...args)),
      });
      await running.start();
      // The facts auth would publish: a server and its key.
      await publishEvent(shared!.bus, ServerCreatedEvent, 'srv-big', { serverId: 'srv-big', name: 'Big', ownerId: 'u-1', tier: 'free', suspended: false, createdAt: new Date().toISOString() });
      await publishEvent(shared!.bus, ApiKeyRotatedEvent, 'srv-big', { serverId: 'srv-big', keyHash: hashApiKey(apiKey), previousKeyHash: null });
      await waitFor(async () => (await running.app.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': apiKey }, payload: [] })).statusCode !== 401, 'the key');
      port = await listen(running.app);
    }, 60_000); // starts the all-in-one before the tries
    afterAll(async () => {
      await running?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it(`${TRIES} of ${TRIES} tries, with a declared length and chunked`, async () => {
      await expectReadable413s(port, '/logs', apiKey);
    }, 120_000); // TRIES uploads over the limit, each streamed in full
  });
});
