/**
 * Fills Node's module compile cache for a source tree, as the Docker image does at build time, so that the
 * first start of every container is a warm one. A start that misses even one TypeScript module
 * in the cache makes Node load its TypeScript stripper (amaro), ~10 MiB more idle RSS for the life of the
 * process, and compiles everything from source (docs/DECISIONS.md, "Performance").
 *
 * Two Node processes, both with the caller's environment (the cache's directory is keyed by Node's
 * version, the V8 flags, the CPU's features and the uid, so NODE_OPTIONS and the user must be those of
 * the runs that will read it; both run with NODE_FLAGS, scripts/node-flags.mjs, as every Skald process does):
 *   1. the all-in-one as it is deployed (`node <NODE_FLAGS> gateway/src/main.ts`, TARGET=all) on a throwaway DATA_DIR
 *      and loopback ports it binds itself (PORT=0, read from its listening line; a port picked here could be
 *      taken before it binds), until GET /health answers 200, then stopped with SIGTERM (the launcher
 *      drains and exits 0; Node writes the cache on the way out);
 *   2. an import of every workspace module besides the process entries (libs, services, gateway), which
 *      adds what the all-in-one does not load at start: the other TARGETs' modes and the adapters chosen
 *      by configuration (Redis, Kafka, MongoDB, MinIO, SMTP, Stripe). Importing them runs nothing.
 *
 *   NODE_COMPILE_CACHE=/app/.cache/node-compile-cache node scripts/warm-compile-cache.ts
 *
 * Without NODE_COMPILE_CACHE the cache goes where gateway/src/main.ts puts it by default (Node's own
 * default, <tmpdir>/node-compile-cache).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listeningPort } from '../libs/testing/src/listening-line.ts';
import { NODE_FLAGS } from './node-flags.mjs';

export interface WarmUpOptions {
  /** The source tree (its gateway/src/main.ts is started, its workspace modules imported). */
  readonly root: string;
  /** Environment of both processes; default this process's. */
  readonly env?: NodeJS.ProcessEnv;
  /** Longest wait for /health and for each process to exit; default 120 s (a cold start on a slow builder). */
  readonly timeoutMs?: number;
}

export interface WarmUpResult {
  /** The compile cache's directory (NODE_COMPILE_CACHE, or Node's default). */
  readonly directory: string;
  /** Workspace modules imported by the second process. */
  readonly modules: number;
  /** Files in the cache's directory afterwards. */
  readonly entries: number;
}

/** Entries of processes: importing them would run them. */
const PROCESS_ENTRIES = new Set(['gateway/src/main.ts', 'gateway/src/cli.ts']);
const OUTPUT_KEPT = 8_000;

/** Node's own default, which `enableCompileCache()` without a directory uses. */
export function compileCacheDirectory(env: NodeJS.ProcessEnv): string {
  return env['NODE_COMPILE_CACHE'] || join(tmpdir(), 'node-compile-cache');
}

/** Every TypeScript module of the workspace's sources (libs/<name>/src, services/<name>/src, gateway/src) but the process entries. */
export async function workspaceModules(root: string): Promise<string[]> {
  const sources = [join(root, 'gateway', 'src')];
  for (const group of ['libs', 'services']) {
    for (const entry of await readdir(join(root, group), { withFileTypes: true })) {
      if (entry.isDirectory()) sources.push(join(root, group, entry.name, 'src'));
    }
  }
  const modules: string[] = [];
  for (const source of sources) {
    const files = await readdir(source, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const file of files) {
      const path = join(file.parentPath, file.name);
      if (file.isFile() && file.name.endsWith('.ts') && !file.name.endsWith('.d.ts') && !PROCESS_ENTRIES.has(relative(root, path))) modules.push(path);
    }
  }
  return modules.sort();
}

interface Run {
  /** The exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
  /** The last few KB the process printed (stdout and stderr), for error messages. */
  readonly output: () => string;
  readonly kill: (signal: NodeJS.Signals) => void;
}

function run(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Run {
  // With the V8 flags of every Skald process: Node keys the compile cache by them (scripts/node-flags.mjs).
  const child = spawn(process.execPath, [...NODE_FLAGS, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_KEPT);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  });
  // Awaited later; this keeps a failed spawn from being an unhandled rejection meanwhile.
  exited.catch(() => undefined);
  return { exited, output: () => output, kill: (signal) => child.kill(signal) };
}

/** The exit code of `child`, killed (and an error thrown) if it has not exited within timeoutMs. */
async function exitCode(child: Run, what: string, timeoutMs: number): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${what} did not exit within ${timeoutMs} ms:\n${child.output()}`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([child.exited, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The port the all-in-one bound, from its listening line. */
async function untilListening(allInOne: Run, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void allInOne.exited.finally(() => (exited = true)).catch(() => undefined);
  while (Date.now() < deadline) {
    const port = listeningPort(allInOne.output());
    if (port !== undefined) return port;
    if (exited) throw new Error(`the all-in-one exited before it listened:\n${allInOne.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  allInOne.kill('SIGKILL');
  throw new Error(`the all-in-one printed no listening line within ${timeoutMs} ms:\n${allInOne.output()}`);
}

async function untilHealthy(url: string, allInOne: Run, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void allInOne.exited.finally(() => (exited = true)).catch(() => undefined);
  while (Date.now() < deadline) {
    if (exited) throw new Error(`the all-in-one exited before ${url} answered:\n${allInOne.output()}`);
    const status = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      async (response) => {
        await response.body?.cancel();
        return response.status;
      },
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  allInOne.kill('SIGKILL');
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms:\n${allInOne.output()}`);
}

/** Phase 1: the all-in-one started as deployed, until healthy, then stopped cleanly. */
async function startAllInOne(root: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'skald-warm-compile-cache-'));
  try {
    const allInOne = run([join(root, 'gateway', 'src', 'main.ts')], root, {
      ...env,
      TARGET: 'all',
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      METRICS_PORT: '0',
      // The level of the listening line (the level loads no other module: the cache is the same).
      LOG_LEVEL: 'info',
    });
    const port = await untilListening(allInOne, timeoutMs);
    await untilHealthy(`http://127.0.0.1:${port}/health`, allInOne, timeoutMs);
    allInOne.kill('SIGTERM');
    const code = await exitCode(allInOne, 'the all-in-one (after SIGTERM)', timeoutMs);
    if (code !== 0) throw new Error(`the all-in-one exited with ${code} after SIGTERM:\n${allInOne.output()}`);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

// Phase 2, run by `node --input-type=module -e`: the modules are process.argv[1..].
const IMPORT_ALL = `
import { flushCompileCache } from 'node:module';
import { pathToFileURL } from 'node:url';
for (const file of process.argv.slice(1)) await import(pathToFileURL(file).href);
flushCompileCache();
process.exit(0);
`;

async function importAll(root: string, modules: readonly string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<void> {
  const importer = run(['--input-type=module', '-e', IMPORT_ALL, ...modules], root, env);
  const code = await exitCode(importer, 'the import of every workspace module', timeoutMs);
  if (code !== 0) throw new Error(`importing the workspace modules failed (exit ${code}):\n${importer.output()}`);
}

async function countFiles(directory: string): Promise<number> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).length;
}

export async function warmCompileCache(options: WarmUpOptions): Promise<WarmUpResult> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const directory = compileCacheDirectory(options.env ?? process.env);
  // Named explicitly for both: the importer does not call enableCompileCache() as main.ts does.
  const env = { ...(options.env ?? process.env), NODE_COMPILE_CACHE: directory };
  await startAllInOne(options.root, env, timeoutMs);
  const modules = await workspaceModules(options.root);
  await importAll(options.root, modules, env, timeoutMs);
  return { directory, modules: modules.length, entries: await countFiles(directory) };
}

if (import.meta.main) {
  const started = Date.now();
  const root = fileURLToPath(new URL('..', import.meta.url));
  const result = await warmCompileCache({ root });
  console.log(
    `compile cache warmed in ${((Date.now() - started) / 1000).toFixed(1)} s: the all-in-one started and stopped, ${result.modules} workspace modules imported; ${result.entries} files in ${result.directory}`,
  );
}
