/**
 * Test harness for Skald processes: spawn `node gateway/src/main.ts` with an environment, wait for
 * an HTTP readiness URL, collect its output, and kill it (SIGTERM or SIGKILL) waiting for the exit.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listeningPort } from '@skald/testing';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface SkaldProcess {
  readonly name: string;
  readonly port: number;
  readonly baseUrl: string;
  readonly child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Resolves once the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

interface Spawned {
  readonly child: ChildProcess;
  readonly output: () => string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function spawnChild(port: number, env: Record<string, string>): Spawned {
  const chunks: string[] = [];
  const child = spawn(process.execPath, ['gateway/src/main.ts'], {
    cwd: REPO_ROOT,
    // METRICS_PORT 0 unless the test names one: the default (9464) is one port for every process on the machine.
    // The tests' scrypt cost (docs/DECISIONS.md, "Sessions"): each start's dummy hash and every sign-up and login
    // cost ~4 ms of CPU instead of ~0.8 s; a test may set NODE_ENV or the setting itself otherwise.
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      LOG_LEVEL: 'info',
      METRICS_PORT: '0',
      NODE_ENV: 'test',
      INSECURE_TEST_PASSWORD_HASHING: 'true',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  return { child, output: () => chunks.join(''), exited };
}

function asSkaldProcess(name: string, port: number, spawned: Spawned): SkaldProcess {
  const { child, exited } = spawned;
  return {
    name,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    child,
    output: spawned.output,
    exited,
    async kill(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/**
 * Spawns on a port the caller names, without waiting for anything. Only for a restart that must come back
 * where others already point (a port the same test's process held until it died), or with port 0 for a
 * process expected to exit before it listens; a first start uses startSkald.
 */
export function spawnSkald(name: string, port: number, env: Record<string, string>): SkaldProcess {
  return asSkaldProcess(name, port, spawnChild(port, env));
}

/** Clock ticks a second in /proc/<pid>/stat (USER_HZ): 100 on every Linux this runs on. */
const TICKS_PER_SECOND = 100;

/**
 * The CPU time a process has used so far (user and system, from /proc), or undefined where /proc does not
 * tell (not Linux, or the process is gone).
 */
export function cpuMsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces: the fields after it start past its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : undefined;
  } catch {
    return undefined;
  }
}

/** How long a process may take to print its port, in its own CPU time and in wall time. */
export interface StartBounds {
  /**
   * CPU time of the process itself: a start costs a few seconds of it, however loaded the machine is, so a
   * process past this is stuck, not starved.
   */
  readonly cpuMs: number;
  /** Wall time, the backstop where /proc cannot tell the CPU time (and for a process stuck asleep). */
  readonly wallMs: number;
}

/**
 * On a loaded 2-core machine (two test runs and benchmarks at once: load 25) seven processes starting together
 * took over 60 s of wall time to bind while each had used only seconds of CPU; the bound is the process's own CPU.
 */
export const START_BOUNDS: StartBounds = { cpuMs: 60_000, wallMs: 600_000 };

/**
 * Spawns with PORT=0 and resolves once the process prints the port it bound. A port picked here and bound
 * later by the process could be taken in between by another test file running in parallel. The
 * listening line is logged at info, so env must not raise LOG_LEVEL above it.
 */
export async function startSkald(name: string, env: Record<string, string>, bounds: StartBounds = START_BOUNDS): Promise<SkaldProcess> {
  const spawned = spawnChild(0, env);
  let exited = false;
  void spawned.exited.then(() => {
    exited = true;
  });
  const started = Date.now();
  const cpuSpent = () => cpuMsOf(spawned.child.pid) ?? 0;
  let port = listeningPort(spawned.output());
  while (port === undefined && !exited && cpuSpent() < bounds.cpuMs && Date.now() - started < bounds.wallMs) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    port = listeningPort(spawned.output());
  }
  if (port === undefined) {
    // Told before the kill below, which makes the process exit too.
    const why = exited
      ? undefined
      : `printed no listening line after ${Math.round(cpuSpent())} ms of its CPU and ${Date.now() - started} ms of wall time (bounds ${bounds.cpuMs} / ${bounds.wallMs} ms)`;
    if (!exited) spawned.child.kill('SIGKILL');
    const end = await spawned.exited;
    throw new Error(`${name} ${why ?? `exited (code ${end.code ?? '-'}, signal ${end.signal ?? '-'})`}:\n${spawned.output().slice(-4000)}`);
  }
  return asSkaldProcess(name, port, spawned);
}

/** Polls url until it answers 200; fails with the process output when it exits or time runs out. */
export async function waitForOk(proc: SkaldProcess, path: string, timeoutMs = 30_000): Promise<number> {
  const started = Date.now();
  let exited = false;
  void proc.exited.then(() => {
    exited = true;
  });
  while (Date.now() - started < timeoutMs) {
    if (exited) throw new Error(`${proc.name} exited before ${path} was ready:\n${proc.output().slice(-4000)}`);
    try {
      const response = await fetch(`${proc.baseUrl}${path}`, { signal: AbortSignal.timeout(1_000) });
      await response.body?.cancel();
      if (response.status === 200) return Date.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${proc.name}: ${path} not ready after ${timeoutMs} ms:\n${proc.output().slice(-4000)}`);
}

/** Retries fn until it returns a value (not undefined) or time runs out. */
export async function eventually<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 20_000, intervalMs = 200): Promise<T> {
  const started = Date.now();
  let last: unknown;
  while (Date.now() - started < timeoutMs) {
    try {
      const value = await fn();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

/** Resident set size of a process in MB, from /proc (Linux). */
export async function rssMb(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/**
 * The environment every process of a distributed test shares: the bus and counters on the real Redis under
 * the run's prefix, embedded stores (one DATA_DIR per process, or shared where a test says so), and one
 * fresh EdDSA key pair written under `root` (auth signs, the others verify).
 */
export function distributedEnv(root: string, redisUrl: string, redisPrefix: string): Record<string, string> {
  const keysDir = join(root, 'keys');
  mkdirSync(keysDir, { recursive: true });
  const pair = generateKeyPairSync('ed25519', { privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  writeFileSync(join(keysDir, 'public.pem'), pair.publicKey, { mode: 0o600 });
  writeFileSync(join(keysDir, 'private.pem'), pair.privateKey, { mode: 0o600 });
  return {
    EVENT_BUS: 'redis',
    REDIS_URL: redisUrl,
    REDIS_PREFIX: redisPrefix,
    DOC_STORE: 'sqlite',
    LOG_STORE: 'sqlite',
    OBJECT_STORE: 'fs',
    JOB_QUEUE: 'embedded',
    COUNTERS: 'redis',
    MAILER: 'outbox',
    JWT_PUBLIC_KEY_FILE: join(keysDir, 'public.pem'),
    JWT_PRIVATE_KEY_FILE: join(keysDir, 'private.pem'),
    SECRETS_KEY: randomBytes(32).toString('base64'),
  };
}

/**
 * The port the process's metrics listener bound, from its start-up line (the last one: a restarted
 * process logs again). Tests start processes with METRICS_PORT 0: a port picked by the test and bound
 * later by the process can be taken in between by another test file running in parallel.
 */
export async function metricsPortOf(proc: SkaldProcess, timeoutMs = 10_000): Promise<number> {
  // The metrics listener starts just after the HTTP port is bound, so /health may answer before its line.
  const bound = async () => [...proc.output().matchAll(/metrics at http:\/\/[^\s"]+:(\d+)\/metrics/g)].at(-1)?.[1];
  const port = await eventually(`${proc.name} to log its metrics listener`, bound, timeoutMs, 50).catch((error: unknown) => {
    throw new Error(`${String(error)}:\n${proc.output().slice(-2000)}`);
  });
  return Number(port);
}
