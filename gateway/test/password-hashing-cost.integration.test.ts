/**
 * The all-in-one started as the browser walks start it (`node gateway/src/main.ts`, NODE_ENV=test) stores
 * password hashes at the tests' scrypt cost with INSECURE_TEST_PASSWORD_HASHING=true and at OWASP's without
 * it; outside NODE_ENV=test the setting stops the process before it listens. Read from the stored hash
 * itself (`scrypt$<logN>$<r>$<p>$...`), after the process has stopped.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createServiceDocumentStore } from '@skald/adapters';
import { loadConfig } from '@skald/config';
import { listeningPort } from '@skald/testing';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'skald-password-cost-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  readonly output: string;
  readonly exitCode: number | null;
}

/**
 * Starts the all-in-one with `env` on port 0; once it listens, `use` gets its base URL; then SIGTERM and the
 * exit. A process that exits before listening is returned as it ended.
 */
async function runAllInOne(dataDir: string, env: Readonly<Record<string, string>>, use: (base: string) => Promise<void>): Promise<Run> {
  const child = spawn(process.execPath, ['gateway/src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', HOST: '127.0.0.1', PORT: '0', METRICS_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  const output = (): string => chunks.join('');
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    // Start-up on a loaded 2-core machine can take tens of seconds (as in web/e2e/server.ts): 60 s.
    const deadline = Date.now() + 60_000;
    while (listeningPort(output()) === undefined && child.exitCode === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const port = listeningPort(output());
    if (port !== undefined) await use(`http://127.0.0.1:${port}/api`);
    else if (child.exitCode === null) throw new Error(`the all-in-one neither listened nor exited in 60 s:\n${output().slice(-3000)}`);
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
  }
  const exitCode = await exited;
  return { output: output(), exitCode };
}

async function signUp(base: string, username: string): Promise<void> {
  const body = { username, email: `${username}@example.com`, password: 'a-long-password-1' };
  const post = (path: string, payload: object): Promise<Response> =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
  expect((await post('/auth/register', body)).status).toBe(201);
  // The stored hash verifies: a login with it succeeds.
  expect((await post('/auth/login', { username, password: body.password })).status).toBe(200);
}

/** The stored hash's `scrypt$logN$r$p` head, read from the stopped process's auth store. */
async function storedCost(dataDir: string, username: string): Promise<string> {
  const docs = await createServiceDocumentStore(loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: 'http://127.0.0.1:9' }), 'auth');
  try {
    const users = await docs.collection<{ _id: string; username: string; passwordHash: string }>('users');
    const user = await users.findOne({ username });
    return (user?.passwordHash ?? 'no such user').split('$').slice(0, 4).join('$');
  } finally {
    await docs.close();
  }
}

function warningLines(output: string): string[] {
  return output.split('\n').filter((line) => line.includes('INSECURE_TEST_PASSWORD_HASHING'));
}

describe('INSECURE_TEST_PASSWORD_HASHING in a spawned all-in-one', () => {
  it('with NODE_ENV=test: hashes at N=2^10 and says so once at start', async () => {
    const dataDir = join(dir, 'cheap');
    const run = await runAllInOne(dataDir, { NODE_ENV: 'test', INSECURE_TEST_PASSWORD_HASHING: 'true' }, (base) => signUp(base, 'cheap'));
    expect(run.exitCode, run.output.slice(-3000)).toBe(0);
    expect(await storedCost(dataDir, 'cheap')).toBe('scrypt$10$8$1');
    const warnings = warningLines(run.output);
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40 });
    expect(warnings[0]).toContain('is on: passwords are hashed at scrypt N=2^10');
  }, 120_000); // a process start (bounded at 60 s) and its stop on a loaded machine

  it('without it: hashes at OWASP N=2^17, no warning', async () => {
    const dataDir = join(dir, 'owasp');
    const run = await runAllInOne(dataDir, { NODE_ENV: 'test' }, (base) => signUp(base, 'owasp'));
    expect(run.exitCode, run.output.slice(-3000)).toBe(0);
    expect(await storedCost(dataDir, 'owasp')).toBe('scrypt$17$8$1');
    expect(warningLines(run.output)).toEqual([]);
  }, 120_000); // a start (bounded at 60 s) plus three OWASP hashes (dummy, sign-up, login), about 0.8 s of CPU each under load

  it('outside NODE_ENV=test: the process does not start, with the reason', async () => {
    const run = await runAllInOne(join(dir, 'refused'), { NODE_ENV: 'production', INSECURE_TEST_PASSWORD_HASHING: 'true' }, () => {
      throw new Error('the process listened');
    });
    expect(run.exitCode).toBe(1);
    expect(run.output).toContain(
      'Invalid configuration: INSECURE_TEST_PASSWORD_HASHING=true is only allowed when NODE_ENV=test (got NODE_ENV="production")',
    );
  }, 90_000); // one process start that ends at its configuration; the start's own bound is 60 s
});
