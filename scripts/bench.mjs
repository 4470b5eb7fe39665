#!/usr/bin/env node
// `npm run bench [-- <filter>...]`: runs every scripts/bench/benchmarks/*.bench.ts (or those whose name contains a
// filter), each in its own Node process, one after the other, and prints one table of figure vs target
// and baseline. A benchmark file default-exports `async () => BenchRow[]` (see scripts/bench/harness/bench-row.ts);
// a named `run` export is accepted too. Exit code: non-zero only when a benchmark crashes or returns no
// rows; a missed target is printed as MISSED but does not fail the run (figures, not gates).
// Environment: BENCH_ROWS (log-store benchmark size, default 5,000,000) and whatever each file documents.
import './require-node.mjs';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url).pathname;
const benchDir = join(root, 'scripts', 'bench');
// Benchmarks live in scripts/bench/benchmarks/; one left directly in scripts/bench/ still runs.
const benchmarkDirs = [join(benchDir, 'benchmarks'), benchDir];
const MARKER = '@@bench-rows@@';

const filters = process.argv.slice(2);
/** Each benchmark file's path by its name (the first one found of a name). */
const pathOf = new Map();
for (const dir of benchmarkDirs) {
  if (!existsSync(dir)) continue;
  for (const f of readdirSync(dir)) if (f.endsWith('.bench.ts') && !pathOf.has(f)) pathOf.set(f, join(dir, f));
}
const files = [...pathOf.keys()]
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

// Runs inside the child (run-bench-file.mjs): imports the file, calls its benchmark, hands the rows back on one marked line.
const runner = join(benchDir, 'run-bench-file.mjs');

function runOne(file) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [runner, pathToFileURL(pathOf.get(file)).href, MARKER], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
    });
    let buffered = '';
    let rows = null;
    child.stdout.on('data', (chunk) => {
      buffered += chunk.toString();
      let nl;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (line.startsWith(MARKER)) rows = JSON.parse(line.slice(MARKER.length));
        else process.stdout.write(`  [${file}] ${line}\n`);
      }
    });
    child.on('close', (code, signal) => {
      if (buffered.startsWith(MARKER)) rows = JSON.parse(buffered.slice(MARKER.length));
      resolve({ file, code, signal, rows, seconds: (Date.now() - started) / 1000 });
    });
  });
}

function formatValue(v) {
  if (typeof v !== 'number') return String(v);
  if (Number.isInteger(v)) return v.toLocaleString('en-US');
  return v.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

function printTable(results) {
  const header = ['benchmark', 'metric', 'value', 'unit', 'target', 'status', 'baseline / note'];
  const lines = [];
  for (const r of results) {
    if (r.rows === null) {
      lines.push([r.file, `CRASHED (exit ${r.code ?? r.signal})`, '', '', '', 'ERROR', '']);
      continue;
    }
    for (const row of r.rows) {
      const status = row.pass === undefined ? '' : row.pass ? 'ok' : 'MISSED';
      const extra = [row.baseline, row.note].filter(Boolean).join('; ');
      lines.push([r.file.replace(/\.bench\.ts$/, ''), row.name, formatValue(row.value), row.unit ?? '', row.target ?? '', status, extra]);
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => String(l[i]).length)));
  const fmt = (cells) => cells.map((c, i) => (i === 2 ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i]))).join(' | ');
  console.log(`\n${fmt(header)}\n${widths.map((w) => '-'.repeat(w)).join('-+-')}`);
  for (const l of lines) console.log(fmt(l));
}

if (files.length === 0) {
  console.log(`no benchmark matched ${filters.join(', ') || '(none found)'}`);
  process.exit(1);
}
const results = [];
for (const file of files) {
  console.log(`\n== ${file}`);
  const result = await runOne(file);
  console.log(`== ${file}: ${result.rows === null ? `CRASHED (exit ${result.code ?? result.signal})` : `${result.rows.length} rows`} in ${result.seconds.toFixed(1)} s`);
  results.push(result);
}
printTable(results);
const crashed = results.filter((r) => r.rows === null || r.code !== 0);
const missed = results.flatMap((r) => r.rows ?? []).filter((row) => row.pass === false).length;
console.log(`\n${results.length} benchmark file(s), ${missed} missed target(s), ${crashed.length} crashed`);
process.exit(crashed.length > 0 ? 1 : 0);
