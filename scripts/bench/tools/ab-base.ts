/**
 * Prepares the A side of ab.ts: a git worktree of an earlier commit that runs the product code of that
 * commit under THIS tree's bench harness.
 *
 *   node scripts/bench/tools/ab-base.ts <commit> [dir=/tmp/skald-ab-base]
 *   AB_BASE=/tmp/skald-ab-base node scripts/bench/tools/ab.ts
 *
 * - node_modules: every entry links to this tree's, except the workspace packages (@skald/*), whose links
 *   are copied as they are (relative), so they resolve to the worktree's own libs and services.
 * - The harness files (scripts/bench/harness/pinned/*.ts but skald-server.ts, which builds the product the way its
 *   commit did) are copied over the worktree's, so both sides answer the same commands (loop delay, long
 *   turns, profiles) even when the commit predates them.
 * An existing dir is removed first (with `git worktree remove --force`).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { skaldServerOf } from '../harness/pinned/as-deployed.ts';

const [commit, dir = '/tmp/skald-ab-base'] = process.argv.slice(2);
if (!commit) throw new Error('usage: ab-base.ts <commit> [dir]');
const root = new URL('../../..', import.meta.url).pathname.replace(/\/$/, '');
const git = (...args: string[]): string => execFileSync('git', args, { cwd: root, encoding: 'utf8' });

if (existsSync(dir)) git('worktree', 'remove', '--force', dir);
git('worktree', 'add', '--detach', dir, commit);

const modules = join(root, 'node_modules');
mkdirSync(join(dir, 'node_modules'));
for (const entry of readdirSync(modules)) {
  if (entry === '@skald') cpSync(join(modules, entry), join(dir, 'node_modules', entry), { recursive: true, verbatimSymlinks: true });
  else symlinkSync(join(modules, entry), join(dir, 'node_modules', entry));
}

const harness = join(root, 'scripts/bench/harness/pinned/');
const copied: string[] = [];
for (const file of readdirSync(harness)) {
  if (!file.endsWith('.ts') || file === 'skald-server.ts') continue;
  // Beside the worktree's own skald-server.ts (the old place in a commit from before the bench folder's split).
  copyFileSync(join(harness, file), join(dirname(skaldServerOf(dir)), file));
  copied.push(file);
}
console.log(`${dir}: ${git('rev-parse', '--short', commit).trim()} with this tree's node_modules and harness (${copied.length} files)`);
console.log(`run: AB_BASE=${dir} node scripts/bench/tools/ab.ts; remove: git worktree remove --force ${dir}`);
