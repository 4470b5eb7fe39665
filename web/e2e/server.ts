// Starts the all-in-one server (node gateway/src/main.ts) on a free port with a throw-away DATA_DIR.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

// A copy of @skald/testing's freePort (libs/testing/src/free-port.ts says why ports come from below the
// kernel's ephemeral range): the web project may depend on the contracts only (Nx module boundaries).
const LOWEST_PORT = 20_000;
const handedOut = new Set<number>();

function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > LOWEST_PORT + 1_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  const high = ephemeralLow();
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = LOWEST_PORT + Math.floor(Math.random() * (high - LOWEST_PORT));
    if (handedOut.has(port)) continue;
    if (await portIsFree(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port found between ${LOWEST_PORT} and ${high} after 200 tries`);
}

/**
 * `npm run build:web`, unless SKIP_WEB_BUILD=1 and a build exists. The run's global set-up
 * (web/e2e/global-setup.ts) builds once and sets SKIP_WEB_BUILD=1 for the test files, so a file run alone
 * still builds what it serves and a whole run builds once.
 */
export function buildWeb(): void {
  if (process.env.SKIP_WEB_BUILD === '1' && existsSync(join(REPO_ROOT, 'web', 'dist', 'index.html'))) return;
  // vitest sets NODE_ENV=test, which Vite would honour and build React's and antd's development
  // bundles; the walkthrough must see (and screenshot, and check) what users get.
  const env = { ...process.env, NODE_ENV: 'production' };
  const result = spawnSync('npm', ['run', 'build:web'], { cwd: REPO_ROOT, stdio: 'pipe', encoding: 'utf8', env });
  if (result.status !== 0) throw new Error(`npm run build:web failed:\n${result.stdout}\n${result.stderr}`);
}

/** The support address the walkthrough's server is configured with (the privacy policy and terms show it). */
export const E2E_SUPPORT_EMAIL = 'support@skald.test';

export interface RunningServer {
  baseUrl: string;
  /** The server's DATA_DIR (operator commands such as users:promote run against it). */
  dataDir: string;
  output(): string;
  stop(): Promise<void>;
}

/** `env` adds settings for the walkthrough's own server (its Stripe test server, OUTBOUND_ALLOWED_HOSTS for a local receiver). */
export async function startAllInOne(env: Readonly<Record<string, string>> = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'skald-e2e-'));
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [join(REPO_ROOT, 'gateway', 'src', 'main.ts')], {
    cwd: REPO_ROOT,
    env: { ...process.env, TARGET: 'all', PORT: String(port), DATA_DIR: dataDir, NODE_ENV: 'test', SUPPORT_EMAIL: E2E_SUPPORT_EMAIL, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((done) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          done(undefined);
        }, 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          done(undefined);
        });
      });
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`the all-in-one server exited with ${child.exitCode}:\n${output.slice(-4000)}`);
    }
    try {
      const res = await fetch(`${baseUrl}/`);
      if (res.ok && (res.headers.get('content-type') ?? '').includes('text/html')) return { baseUrl, dataDir, output: () => output, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  await stop();
  throw new Error(`the all-in-one server did not serve the web app within 60 s:\n${output.slice(-4000)}`);
}
