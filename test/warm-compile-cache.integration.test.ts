/**
 * The compile cache warm-up the Docker image runs at build (scripts/warm-compile-cache.ts): after
 * it, a process on the same cache finds every TypeScript module it loads, so Node never loads its
 * TypeScript stripper (amaro, ~10 MiB of idle RSS), whichever TARGET or adapters it starts with.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { NODE_FLAGS } from '../scripts/node-flags.mjs';
import { compileCacheDirectory, warmCompileCache, workspaceModules } from '../scripts/warm-compile-cache.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const scratch: string[] = [];

afterAll(async () => {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

async function emptyCache(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'skald-compile-cache-test-'));
  scratch.push(dir);
  return dir;
}

/** Imports `modules` in a fresh Node on the cache `dir` (with Skald's V8 flags, part of the cache's key); answers whether Node loaded its TypeScript stripper. */
function strippedOnTheFly(dir: string, modules: readonly string[]): boolean {
  const code = `
    import { pathToFileURL } from 'node:url';
    for (const file of process.argv.slice(1)) await import(pathToFileURL(file).href);
    console.log(JSON.stringify(process.moduleLoadList.some((m) => m.includes('internal/deps/amaro'))));
  `;
  const result = spawnSync(process.execPath, [...NODE_FLAGS, '--input-type=module', '-e', code, ...modules.map((module) => join(ROOT, module))], {
    cwd: ROOT,
    env: { ...process.env, NODE_COMPILE_CACHE: dir },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '') as boolean;
}

describe('compile cache warm-up', () => {
  it('lists every workspace module but the process entries, which would run when imported', async () => {
    const modules = (await workspaceModules(ROOT)).map((path) => relative(ROOT, path));
    expect(modules).toContain('gateway/src/all-in-one.ts');
    expect(modules).toContain('gateway/src/gateway-only.ts');
    expect(modules).toContain('libs/adapters/src/event-bus/redis/redis-event-bus.ts');
    expect(modules).toContain('services/logs/src/index.ts');
    expect(modules).not.toContain('gateway/src/main.ts');
    expect(modules).not.toContain('gateway/src/cli.ts');
    expect(modules.every((path) => /^(libs|services)\/[^/]+\/src\/|^gateway\/src\//.test(path))).toBe(true);
  });

  it("uses NODE_COMPILE_CACHE, else Node's default directory (where main.ts's enableCompileCache() writes)", () => {
    expect(compileCacheDirectory({ NODE_COMPILE_CACHE: '/app/.cache/node-compile-cache' })).toBe('/app/.cache/node-compile-cache');
    expect(compileCacheDirectory({})).toBe(join(tmpdir(), 'node-compile-cache'));
  });

  it('leaves a cache on which the all-in-one and the other modes load no TypeScript stripper', async () => {
    const modules = ['gateway/src/all-in-one.ts', 'gateway/src/gateway-only.ts', 'gateway/src/single-service.ts', 'libs/adapters/src/event-bus/redis/redis-event-bus.ts'];
    // The check itself: on an empty cache every module is stripped on the fly.
    expect(strippedOnTheFly(await emptyCache(), modules)).toBe(true);

    const dir = await emptyCache();
    const result = await warmCompileCache({ root: ROOT, env: { ...process.env, NODE_COMPILE_CACHE: dir } });
    expect(result.directory).toBe(dir);
    expect(result.modules).toBeGreaterThan(300);
    expect(result.entries).toBeGreaterThan(result.modules);
    expect(strippedOnTheFly(dir, modules)).toBe(false);
  }, 180_000); // starts each mode once to warm the cache, then again on it
});
