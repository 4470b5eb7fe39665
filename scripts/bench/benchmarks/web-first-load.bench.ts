/**
 * First-load bytes per screen: what a browser with an empty cache downloads to show
 * each main screen, as the gateway serves it (the build's precompressed `.br` files), beside a budget.
 *
 * Builds the web app once (web/vite.config.ts, into a temporary folder, with vite's manifest) and, per
 * screen, follows the manifest: index.html, the entry chunk and every chunk it imports statically, plus
 * the screen's lazily loaded page module and its static imports, and the CSS of all of them. Dynamic
 * imports that the screen does not take are not counted. Sizes: brotli as served (the figure), gzip and
 * raw in the note.
 *
 * Run: `npm run bench -- web-first-load` or `node scripts/bench/benchmarks/web-first-load.bench.ts`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { BenchRow } from '../harness/bench-row.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

interface ManifestChunk {
  readonly file: string;
  readonly imports?: readonly string[];
  readonly css?: readonly string[];
  readonly isEntry?: boolean;
}
type Manifest = Readonly<Record<string, ManifestChunk>>;

/**
 * The screens users land on, the page module each one lazy-loads, and its budget in KiB of brotli: the
 * public landing page 160 KiB (React, the router, the store and the shell; no form, tabs or charts code),
 * the signed-in screens 250 KiB, the dashboard 360 KiB (its charts: echarts' bar-chart core alone is 145 KiB over the 154 KiB floor every screen
 * loads; docs/DECISIONS.md).
 */
const SCREENS: readonly { readonly name: string; readonly path: string; readonly page: string; readonly budgetKiB: number }[] = [
  { name: 'landing', path: '/', page: 'src/features/landing/LandingPage.tsx', budgetKiB: 160 },
  { name: 'login', path: '/login', page: 'src/features/auth/LoginPage.tsx', budgetKiB: 250 },
  { name: 'dashboard', path: '/dashboard', page: 'src/features/dashboard/DashboardPage.tsx', budgetKiB: 360 },
  { name: 'logs', path: '/logs', page: 'src/features/logs/LogsPage.tsx', budgetKiB: 250 },
  { name: 'photo logs', path: '/photologs', page: 'src/features/photologs/PhotoLogsPage.tsx', budgetKiB: 250 },
];

function build(outDir: string): Manifest {
  const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--manifest', '--logLevel', 'warn'], {
    cwd: join(ROOT, 'web'),
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
  });
  if (result.status !== 0) throw new Error(`vite build failed (exit ${String(result.status)})`);
  return JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
}

/** Files a chunk needs before it can run: itself, its CSS, and the same for every static import. */
function closure(manifest: Manifest, key: string, files: Set<string>, seen = new Set<string>()): void {
  if (seen.has(key)) return;
  seen.add(key);
  const chunk = manifest[key];
  if (chunk === undefined) throw new Error(`the web build's manifest has no '${key}' (moved or renamed? update SCREENS)`);
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const imported of chunk.imports ?? []) closure(manifest, imported, files, seen);
}

interface Sizes {
  readonly raw: number;
  readonly gzip: number;
  readonly brotli: number;
}

/** Bytes on the wire: the build's own `.br` where it wrote one (files of 1 KiB and more), else brotli now. */
function sizesOf(dir: string, file: string): Sizes {
  const bytes = readFileSync(join(dir, file));
  const br = join(dir, `${file}.br`);
  const brotli = existsSync(br) ? readFileSync(br).length : brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, brotli };
}

const kib = (bytes: number): number => Math.round((bytes / 1024) * 10) / 10;

export async function run(): Promise<BenchRow[]> {
  const outDir = mkdtempSync(join(tmpdir(), 'skald-web-bench-'));
  try {
    const manifest = build(outDir);
    const rows: BenchRow[] = [];
    for (const screen of SCREENS) {
      const files = new Set<string>(['index.html']);
      closure(manifest, 'index.html', files);
      closure(manifest, screen.page, files);
      const total = [...files].map((file) => sizesOf(outDir, file)).reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip, brotli: a.brotli + b.brotli }));
      const value = kib(total.brotli);
      rows.push({
        name: `first load ${screen.name} (${screen.path})`,
        value,
        unit: 'KiB br',
        target: `<= ${screen.budgetKiB} KiB`,
        pass: value <= screen.budgetKiB,
        note: `${files.size} files; gzip ${kib(total.gzip)} KiB, raw ${kib(total.raw)} KiB`,
      });
    }
    return rows;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

export default run;

if (import.meta.main) console.table(await run());
