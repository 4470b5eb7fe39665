/**
 * The proxy-only gateway, started as operators start it (`TARGET=gateway node gateway/src/main.ts`) with a
 * preload that records every module Node loads (support/record-loaded-modules.ts): once it answers /health,
 * it has loaded no adapter, no service and no database or broker client. The import walk
 * (gateway-only-imports.test.ts) says the same of the code; this says it of the running process.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { listeningPort, waitFor } from '@skald/testing';

const root = resolve(import.meta.dirname, '..', '..');
const CLIENTS = ['mongodb', 'kafkajs', 'minio', 'bullmq', 'ioredis', 'nodemailer', 'sharp'];
const dir = mkdtempSync(join(tmpdir(), 'skald-gateway-modules-'));
const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const stop of stops) await stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a TARGET=gateway process', () => {
  // timeout: starts a gateway child process and waits for its first answer
  it('has loaded no module of libs/adapters, of a service, nor a database or broker client once it answers', { timeout: 60_000 }, async () => {
    const list = join(dir, 'loaded.txt');
    const child = spawn(process.execPath, [`--import=${join(root, 'gateway/test/support/record-loaded-modules.ts')}`, 'gateway/src/main.ts'], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        TARGET: 'gateway',
        HOST: '127.0.0.1',
        // Ports it binds itself, read from its listening line (logged at info, the default level).
        PORT: '0',
        METRICS_PORT: '0',
        DATA_DIR: join(dir, 'data'),
        // Nothing listens there: the proxy is not asked to forward anything.
        SERVICE_URL_AUTH: 'http://127.0.0.1:9',
        LOADED_MODULES_FILE: list,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
    const exited = new Promise((done) => child.once('exit', done));
    stops.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    });

    const healthy = async (): Promise<boolean> => {
      if (child.exitCode !== null) throw new Error(`the gateway exited:\n${output.join('').slice(-3000)}`);
      const port = listeningPort(output.join(''));
      if (port === undefined) return false;
      const response = await fetch(`http://127.0.0.1:${port}/health`).catch(() => null);
      return response?.status === 200;
    };
    await waitFor(healthy, 'the gateway to answer /health', 45_000);

    expect(existsSync(list)).toBe(true);
    const files = readFileSync(list, 'utf8')
      .split('\n')
      .filter((url) => url.startsWith('file:'))
      .map((url) => fileURLToPath(url))
      .map((file) => (file.startsWith(root) ? file.slice(root.length + 1) : file));
    expect(files.filter((file) => file.startsWith('libs/adapters/') || file.startsWith('services/'))).toEqual([]);
    expect(files.filter((file) => CLIENTS.some((client) => file.includes(`/node_modules/${client}/`)))).toEqual([]);
    // The list is real: main.ts loaded the launcher, which loaded the proxying gateway.
    expect(files).toContain('gateway/src/launch.ts');
    expect(files).toContain('gateway/src/gateway-only.ts');
  });
});
