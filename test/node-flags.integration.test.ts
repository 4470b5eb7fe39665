/**
 * The V8 flags every Skald process starts with (scripts/node-flags.mjs): this Node takes them, and they do what
 * they are there for: a worker thread's memory goes back to the OS once the worker has ended (docs/DECISIONS.md, "Performance"). That the image's CMD carries them is deploy/check-manifests.mjs's check.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { NODE_FLAGS } from '../scripts/node-flags.mjs';

/** A worker that builds ~30 MiB of objects and ends; prints the process's anonymous memory after it, less before, in MiB. */
const WORKER_RESIDUE = `
  import { Worker } from 'node:worker_threads';
  import { readFileSync } from 'node:fs';
  const anon = () => Number(/^RssAnon:\\s+(\\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
  const before = anon();
  const worker = new Worker("const a = []; for (let i = 0; i < 2e5; i++) a.push({ i, s: 'x' + i });", { eval: true });
  await new Promise((resolve) => worker.on('exit', resolve));
  await new Promise((resolve) => setTimeout(resolve, 1000));
  console.log(anon() - before);
`;

describe('the V8 flags of every Skald process', () => {
  it('are taken by this Node (a V8 that dropped one would stop every process at start)', () => {
    const result = spawnSync(process.execPath, [...NODE_FLAGS, '-e', 'process.exit(0)'], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  // The check reads the resident memory from /proc: Linux only (the image and CI are Linux).
  if (process.platform !== 'linux') console.log(`skipped: a worker thread's memory given back: reads /proc, absent on ${process.platform}`);
  it.skipIf(process.platform !== 'linux')('give a worker thread its memory back once it has ended', () => {
    const result = spawnSync(process.execPath, [...NODE_FLAGS, '--input-type=module', '-e', WORKER_RESIDUE], { encoding: 'utf8', timeout: 30_000, env: { ...process.env, MALLOC_ARENA_MAX: '2' } });
    expect(result.status, result.stderr).toBe(0);
    // Measured: +2 MiB with the flags, +33 without (V8 hands the dead isolate's memory to the main one).
    expect(Number(result.stdout.trim())).toBeLessThan(10);
  });
});
