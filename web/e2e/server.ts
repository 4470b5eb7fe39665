// Starts the all-in-one server (node gateway/src/main.ts) on a port it binds itself (PORT=0) with a throw-away
// DATA_DIR, and reads the port from its listening line.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { listeningPort } from '@skald/testing/listening-line';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

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
  const dataDir = mkdtempSync(join(tmpdir(), 'skald-e2e-'));
  let output = '';
  // Port 0 for both listeners: the kernel picks a port nobody holds at bind time, where a port chosen
  // beforehand could be taken by another process between the choice and the bind. Passwords are hashed at the
  // tests' scrypt cost (allowed with NODE_ENV=test only): at OWASP's, each sign-up, login and the start's dummy
  // hash cost the walk 0.5-0.8 s of CPU that checks nothing the walk is about.
  const child: ChildProcess = spawn(process.execPath, [join(REPO_ROOT, 'gateway', 'src', 'main.ts')], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      TARGET: 'all',
      HOST: '127.0.0.1',
      PORT: '0',
      METRICS_PORT: '0',
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      INSECURE_TEST_PASSWORD_HASHING: 'true',
      SUPPORT_EMAIL: E2E_SUPPORT_EMAIL,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let listening: (baseUrl: string) => void = () => undefined;
  const bound = new Promise<string>((resolve) => (listening = resolve));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    const port = listeningPort(output);
    if (port !== undefined) listening(`http://127.0.0.1:${port}`);
  });
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  // Start-up (module load, stores, routes) takes a few seconds alone and far longer on a loaded 2-core
  // machine: 60 s before giving up.
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('printed no listening line within 60 s'), 60_000)));
  const first = await Promise.race([bound.then((url) => ({ url })), exited.then((code) => `exited with ${code}`), gaveUp]);
  clearTimeout(timer);
  if (typeof first === 'string') {
    await stop();
    throw new Error(`the all-in-one server ${first}:\n${output.slice(-4000)}`);
  }
  const baseUrl = first.url;
  // It listens once its routes are ready, so the web app answers now; a missing build shows here, not as a
  // blank page in the first walk.
  const res = await fetch(`${baseUrl}/`);
  const type = res.headers.get('content-type') ?? '';
  await res.arrayBuffer();
  if (!res.ok || !type.includes('text/html')) {
    await stop();
    throw new Error(`the all-in-one server answered GET / with ${res.status} ${type}, not the web app:\n${output.slice(-4000)}`);
  }
  return { baseUrl, dataDir, output: () => output, stop };
}
