/**
 * The README's `npm install && npm start` / `npm test` on a machine whose Node is older
 * than 22.18 (Debian 12 ships 20). Through npm the scripts run on the npm package `node` (Node 26 in
 * node_modules/.bin); a direct call on the old Node stops at once with the required version and what to do.
 * Uses the machine's /usr/bin/node when it is such an old Node, and says why it skips otherwise.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SYSTEM_NODE = '/usr/bin/node';

function versionOf(node: string): string | null {
  if (!existsSync(node)) return null;
  const result = spawnSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : null;
}

function olderThanRequired(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major < 22 || (major === 22 && minor < 18);
}

const systemVersion = versionOf(SYSTEM_NODE);
const oldNode = systemVersion !== null && olderThanRequired(systemVersion);
if (!oldNode) console.log(`skipped: ${SYSTEM_NODE} is ${systemVersion ?? 'absent'}, not a Node older than 22.18 to check the guard with`);

describe('Node runtime', () => {
  it.skipIf(!oldNode)('each npm script entry stops at once on an old Node, naming the version and how to get it', () => {
    for (const [script, args] of [['scripts/start.mjs', []], ['scripts/test.mjs', []], ['scripts/bench.mjs', ['no-such-benchmark']]] as const) {
      const result = spawnSync(SYSTEM_NODE, [script, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 20_000, env: { PATH: '/usr/bin:/bin', SKIP_WEB_BUILD: '1' } });
      expect(result.status, script).toBe(1);
      expect(result.stderr, script).toContain('Skald needs Node.js 22.18 or newer');
      expect(result.stderr, script).toContain(`this is Node v${systemVersion}`);
      expect(result.stderr, script).toContain('https://nodejs.org');
      // Nothing of the script itself ran (no web build, no typecheck, no benchmark lookup).
      expect(result.stdout, script).toBe('');
    }
  });

  const shipped = join(ROOT, 'node_modules', 'node', 'package.json');
  if (!existsSync(shipped)) console.log('skipped: node_modules/node is not installed (run npm install)');
  it.skipIf(!existsSync(shipped) || !oldNode)('npm runs the scripts on the shipped Node 26 even with the old Node first on PATH', () => {
    // npm exec puts node_modules/.bin first on PATH, exactly as `npm start` and `npm test` do.
    const result = spawnSync('npm', ['exec', '--no', '--', 'node', '-p', 'process.version'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000, env: { PATH: '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' } });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.trim()).toMatch(/^v26\./);
  });
});
