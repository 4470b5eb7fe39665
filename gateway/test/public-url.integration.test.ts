/**
 * The all-in-one started as users start it (`node gateway/src/main.ts`) on a port other
 * than 8080, without PUBLIC_URL, mails a password-reset link to the port it listens on, and says once at
 * start that PUBLIC_URL is a guess (NODE_ENV=production).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { closedPort, listeningPort } from '@skald/testing';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function until<T>(what: string, probe: () => Promise<T | undefined>, output: () => string): Promise<T> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not happen in 30 s; process output:\n${output().slice(-3000)}`);
}

interface Started {
  readonly port: number;
  readonly child: ChildProcess;
  readonly output: () => string;
  readonly exited: Promise<unknown>;
}

/**
 * The all-in-one on a port named in PORT: the link's address is guessed from it, which PORT=0 cannot show.
 * The port is free right before the spawn (closedPort); when another process binds it first, the
 * all-in-one exits on EADDRINUSE and starts again on another one.
 */
async function startOnNamedPort(dataDir: string): Promise<Started> {
  for (let attempt = 1; ; attempt++) {
    const port = await closedPort();
    // No HOST: the default 0.0.0.0 must come out as localhost in the link.
    const child = spawn(process.execPath, ['gateway/src/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PORT: String(port), METRICS_PORT: '0', DATA_DIR: dataDir, NODE_ENV: 'production', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: string[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
    const output = (): string => chunks.join('');
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const deadline = Date.now() + 30_000;
    while (listeningPort(output()) === undefined && child.exitCode === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (listeningPort(output()) === port) return { port, child, output, exited };
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
    if (!output().includes('EADDRINUSE') || attempt === 3) throw new Error(`the all-in-one did not listen on ${port}; process output:\n${output().slice(-3000)}`);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'skald-public-url-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('PUBLIC_URL unset', () => {
  it('mails reset links to the port the all-in-one listens on and warns once at start', async () => {
    const dataDir = join(dir, 'data');
    const { port, child, output, exited } = await startOnNamedPort(dataDir);
    try {
      const base = `http://127.0.0.1:${port}/api`;
      await until('GET /api/health', async () => ((await fetch(`${base}/health`)).ok ? true : undefined), output);
      const post = (path: string, body: object): Promise<Response> =>
        fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect((await post('/auth/register', { username: 'porty', email: 'porty@example.com', password: 'a-long-password-1' })).status).toBe(201);
      expect((await post('/auth/forgot-password', { email: 'porty@example.com' })).status).toBe(200);

      const outbox = join(dataDir, 'outbox');
      const mail = await until(
        'the reset mail in the outbox',
        async () => {
          const name = readdirSync(outbox).find((n) => n.endsWith('.eml'));
          return name === undefined ? undefined : readFileSync(join(outbox, name), 'utf8');
        },
        output,
      );
      const link = /(https?:\/\/[^\s/]+)\/reset-password\/[A-Za-z0-9_-]+/.exec(mail.replace(/=\r?\n/g, ''));
      expect(link?.[1]).toBe(`http://localhost:${port}`);

      const warnings = output()
        .split('\n')
        .filter((line) => line.includes('PUBLIC_URL is not set'));
      expect(warnings).toHaveLength(1);
      expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40 });
      expect(warnings[0]).toContain(`http://localhost:${port}`);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 60_000); // starts the all-in-one as a child process and waits for a mail
});
