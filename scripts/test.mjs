#!/usr/bin/env node
// The README's test command: typecheck, lint, then every vitest suite (backend unit, contract and
// integration; web components; browser end-to-end). Prints one closing line "N passed, N failed, N skipped".
import './require-node.mjs';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'test-output');
mkdirSync(out, { recursive: true });
const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' };

function run(label, cmd, args) {
  console.log(`\n== ${label}: ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env });
  console.log(`== ${label}: ${result.status === 0 ? 'ok' : `FAILED (exit ${result.status})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result.status === 0;
}

const bin = (name) => join(root, 'node_modules', '.bin', name);
let ok = true;
const totals = { passed: 0, failed: 0, skipped: 0 };

function vitest(label, configArgs, reportName) {
  const report = join(out, `${reportName}.json`);
  const passed = run(label, bin('vitest'), ['run', ...configArgs, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`]);
  if (existsSync(report)) {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests;
    totals.skipped += r.numPendingTests + r.numTodoTests;
  } else if (!passed) {
    totals.failed += 1;
  }
  return passed;
}

// The runtime every step below inherits (through npm: the `node` package's Node 24, whatever the machine has).
console.log(`== node ${process.version} (${process.execPath})`);
// Nx computes the project graph the module-boundary lint rule needs (its daemon does not start here).
ok = run('project graph', bin('nx'), ['show', 'projects']) && ok;
ok = run('typecheck (services, libs, gateway)', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']) && ok;
for (const project of ['web/tsconfig.json', 'web/tsconfig.e2e.json']) {
  if (existsSync(join(root, project))) ok = run(`typecheck (${project})`, bin('tsc'), ['-p', project, '--noEmit']) && ok;
}
ok = run('lint', bin('eslint'), ['.', '--max-warnings', '0']) && ok;
ok = vitest('backend tests', [], 'vitest-backend') && ok;
if (existsSync(join(root, 'web', 'vitest.config.ts'))) ok = vitest('web component tests', ['--config', 'web/vitest.config.ts'], 'vitest-web') && ok;
if (existsSync(join(root, 'web', 'vitest.e2e.config.ts'))) ok = vitest('browser end-to-end', ['--config', 'web/vitest.e2e.config.ts'], 'vitest-e2e') && ok;

console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(ok && totals.failed === 0 ? 0 : 1);
