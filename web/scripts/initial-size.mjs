// Sums the gzipped size of the JavaScript a first visit loads: the entry chunk from
// dist/index.html plus every chunk it imports statically (lazy route chunks excluded).
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = resolve(import.meta.dirname, '..', 'dist');
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const entries = [...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)].map((m) => join(dist, m[1]));
const seen = new Set();
const queue = [...entries];
while (queue.length > 0) {
  const file = queue.pop();
  if (seen.has(file)) continue;
  seen.add(file);
  const code = readFileSync(file, 'utf8');
  // Static imports only: `import ... from "./x.js"` and bare `import "./x.js"`; not `import("./x.js")`.
  for (const m of code.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[\w${},*\s]+from\s*)?["'](\.\/[^"']+\.js)["']/g)) {
    queue.push(join(dirname(file), m[1]));
  }
}
let raw = 0;
let gz = 0;
for (const file of seen) {
  const buf = readFileSync(file);
  raw += buf.length;
  gz += gzipSync(buf, { level: 9 }).length;
}
const kb = (n) => (n / 1024).toFixed(1);
console.log(`initial JS: ${seen.size} files, ${kb(raw)} KB raw, ${kb(gz)} KB gzipped`);
for (const file of [...seen].sort()) console.log(`  ${file.slice(dist.length + 1)}`);
if (process.argv.includes('--check') && gz > 250 * 1024) {
  console.error('initial JS is over the 250 KB gzipped budget');
  process.exit(1);
}
