// Runs one benchmark file inside the child process scripts/bench.mjs starts: imports it, calls its
// benchmark and hands the rows back on one marked line of stdout. A file rather than `node -e`: the
// flags `-e` needs (--input-type) are inherited by every worker thread the benchmark starts (the log
// store's search-index and checkpoint workers), which then refuse to load their own files.
const [file, marker] = process.argv.slice(2);
const mod = await import(file);
const fn = typeof mod.default === 'function' ? mod.default : mod.run;
if (typeof fn !== 'function') throw new Error('no default export (async () => BenchRow[])');
const rows = await fn();
if (!Array.isArray(rows)) throw new Error('the benchmark did not return an array of rows');
process.stdout.write(`\n${marker}${JSON.stringify(rows)}\n`);
