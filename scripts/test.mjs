#!/usr/bin/env node
// The README's test command: typecheck, lint, then every vitest suite (backend unit, contract and
// integration; web components; browser end-to-end). Prints one closing line "N passed, N failed, N skipped".
// `--tier unit|integration|browser` runs one tier's suites alone, without typecheck and lint
// (docs/TESTING.md "Test tiers"; `npm run test:unit` and its siblings).
import './require-node.mjs';
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Buffer } from 'node:buffer';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'test-output');
mkdirSync(join(out, 'steps'), { recursive: true });
const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' };
// Node's compile cache for every process of every step, the browser walks' servers included, in the checkout:
// Node keys it by each module's path, so in the shared temp folder each fresh clone left ~40 MB behind
// (vitest.config.ts gives `npx vitest` the same folder). An explicit setting is kept (empty: none).
env.NODE_COMPILE_CACHE ??= join(root, 'node_modules', '.cache', 'node-compile-cache');

/** Steps that failed and what failed in them, repeated at the end: a CI log is often read from its tail. */
const failures = [];

/**
 * Runs one step; a failed step is named at the end unless its caller names what failed in it (`reportsItself`).
 * `buffered`: the step's output is printed whole when it ends (a step running beside another), else as it comes.
 */
async function run(label, cmd, args, { reportsItself = false, buffered = false } = {}) {
  const started = Date.now();
  const header = `\n== ${label}: ${cmd} ${args.join(' ')}\n`;
  if (!buffered) process.stdout.write(header);
  const child = spawn(cmd, args, { cwd: root, env, stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  const chunks = [];
  // A buffered step's output also goes to test-output/steps/<step>.log as it comes, to follow a long one.
  const live = buffered ? createWriteStream(join(out, 'steps', `${label.replace(/[^a-z0-9]+/gi, '-')}.log`)) : undefined;
  const keep = (chunk) => {
    chunks.push(chunk);
    live?.write(chunk);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const status = await new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? signal)));
  live?.end();
  const outcome = status === 0 ? 'ok' : `FAILED (exit ${status})`;
  process.stdout.write(`${buffered ? header + Buffer.concat(chunks).toString() : ''}== ${label}: ${outcome} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  if (status !== 0 && !reportsItself) failures.push(`${label}: ${outcome}`);
  return status === 0;
}

/**
 * Runs the static checks two at a time (each is one single-threaded process: on the 2-core machine the pair
 * takes about the longest one's time instead of the sum), started in the order given. Each step's output is
 * printed whole when it ends, never interleaved.
 */
async function runTwoAtATime(steps) {
  let next = 0;
  let allOk = true;
  const worker = async () => {
    while (next < steps.length) {
      const { label, cmd, args } = steps[next];
      next += 1;
      allOk = (await run(label, cmd, args, { buffered: true })) && allOk;
    }
  };
  await Promise.all([worker(), worker()]);
  return allOk;
}

const bin = (name) => join(root, 'node_modules', '.bin', name);
// The type check runs on TypeScript 7 (the native compiler: a third of TypeScript 6's CPU for the same
// errors), installed as `typescript-native`; `typescript` stays at 6 for typescript-eslint, which needs the
// compiler API 7 does not have. Named by path: both packages call their command `tsc`.
const tsc = join(root, 'node_modules', 'typescript-native', 'bin', 'tsc');
const tierArg = process.argv.indexOf('--tier');
const tier = tierArg === -1 ? 'all' : process.argv[tierArg + 1];
if (!['all', 'unit', 'integration', 'browser'].includes(tier)) {
  console.error(`unknown tier "${tier}": use unit, integration or browser`);
  process.exit(2);
}
const inTier = (name) => tier === 'all' || tier === name;
let ok = true;
const totals = { passed: 0, failed: 0, skipped: 0 };

function firstLines(text, count) {
  return String(text ?? '')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(0, count)
    .map((line) => `      ${line.trim().slice(0, 300)}`)
    .join('\n');
}

/**
 * What a vitest JSON report says failed. A file whose hook or import failed has no failed test (vitest
 * marks its tests skipped) but fails the run: it is counted and named here, as a failed test is.
 */
function reportFailures(label, r) {
  let failedFiles = 0;
  for (const file of r.testResults ?? []) {
    const name = String(file.name ?? '').replace(root, '');
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const test of failedTests) failures.push(`${label}: ${name} > ${test.fullName}\n${firstLines(test.failureMessages?.join('\n'), 6)}`);
    if (file.status === 'failed' && failedTests.length === 0) {
      failedFiles += 1;
      const notRun = (file.assertionResults ?? []).filter((t) => t.status !== 'passed').length;
      const why = firstLines(file.message, 8) || '      (the reason is in the output above, under this file)';
      failures.push(`${label}: ${name} failed outside its tests (a hook, an import or an unhandled error; ${notRun} tests not run)\n${why}`);
    }
  }
  return failedFiles;
}

async function vitest(label, configArgs, reportName, buffered) {
  const report = join(out, `${reportName}.json`);
  rmSync(report, { force: true });
  const passed = await run(label, bin('vitest'), ['run', ...configArgs, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], { reportsItself: true, buffered });
  if (existsSync(report)) {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests + reportFailures(label, r);
    totals.skipped += r.numPendingTests + r.numTodoTests;
    if (!passed && r.numFailedTests === 0 && (r.numFailedTestSuites ?? 0) === 0) failures.push(`${label}: vitest exited non-zero with every test passed (an unhandled error or a worker that ended: see its output above)`);
  } else if (!passed) {
    totals.failed += 1;
    failures.push(`${label}: no report was written (vitest did not finish)`);
  }
  return passed;
}

// The runtime every step below inherits (through npm: the `node` package's Node 26, whatever the machine has).
console.log(`== node ${process.version} (${process.execPath})`);
// Nx computes the project graph the module-boundary lint rule needs (its daemon does not start here).
if (tier === 'all') {
  const started = Date.now();
  ok = (await run('project graph', bin('nx'), ['show', 'projects'])) && ok;
  const steps = [
    { label: 'typecheck (services, libs, gateway)', cmd: tsc, args: ['-p', 'tsconfig.json', '--noEmit'] },
    ...['web/tsconfig.json', 'web/tsconfig.e2e.json'].filter((project) => existsSync(join(root, project))).map((project) => ({ label: `typecheck (${project})`, cmd: tsc, args: ['-p', project, '--noEmit'] })),
    { label: 'lint', cmd: bin('eslint'), args: ['.', '--max-warnings', '0'] },
  ];
  ok = (await runTwoAtATime(steps)) && ok;
  console.log(`== static checks (two at a time): ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
// The backend's tiers are the two projects of vitest.config.ts; unit runs under the guard that refuses
// child processes and connections out of the process (test/support/unit-tier-guard.ts).
const backendLane = async (buffered) => {
  let laneOk = true;
  if (inTier('unit')) laneOk = (await vitest('backend unit tests', ['--project', 'unit', '--project', 'unit-isolated'], 'vitest-backend-unit', buffered)) && laneOk;
  // Three files at a time: most of this tier's time is waiting (the mock Kafka cluster's join delays, child
  // processes starting), so a third worker fills the idle core time.
  if (inTier('integration')) laneOk = (await vitest('backend integration tests', ['--project', 'integration', '--maxWorkers', '3'], 'vitest-backend-integration', buffered)) && laneOk;
  return laneOk;
};
const webComponentTests = async (buffered) =>
  inTier('unit') && existsSync(join(root, 'web', 'vitest.config.ts')) ? vitest('web component tests', ['--config', 'web/vitest.config.ts'], 'vitest-web', buffered) : true;
const browserTests = async (buffered) =>
  inTier('browser') && existsSync(join(root, 'web', 'vitest.e2e.config.ts')) ? vitest('browser end-to-end', ['--config', 'web/vitest.e2e.config.ts'], 'vitest-e2e', buffered) : true;
// The web component tests (a unit tier, CPU-bound) run after the browser tier, in its lane: the backend lane's
// last minutes are the integration tier, mostly waiting (the mock Kafka cluster's join delays, child processes
// starting), and the component tests fill that idle core time. In the backend lane, before the integration tier,
// they left the browser lane done minutes before it (a run alone: 125 + 89 + 208 s of steps against 237 s).
const browserLane = async (buffered) => {
  const browserOk = await browserTests(buffered);
  return (await webComponentTests(buffered)) && browserOk;
};
if (tier === 'all') {
  // Two lanes side by side: one after the other, the tiers left most of the 2-core machine's CPU idle (a run
  // took 13 min of CPU in 18 of wall). The backend's unit and integration tiers in one lane, the browser tier
  // and the web component tests in the other: about as long as each other. Each step's output is printed whole
  // when it ends.
  const started = Date.now();
  const [backendOk, browserOk] = await Promise.all([backendLane(true), browserLane(true)]);
  ok = backendOk && browserOk && ok;
  console.log(`== backend and browser tiers side by side: ${((Date.now() - started) / 1000).toFixed(1)} s`);
} else {
  // One tier alone, in the foreground: the unit tier is the backend's then the web components' tests.
  ok = (await backendLane(false)) && ok;
  ok = (await webComponentTests(false)) && ok;
  ok = (await browserTests(false)) && ok;
}

if (failures.length > 0) console.log(`\n== what failed\n${failures.map((f) => `  - ${f}`).join('\n')}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(ok && totals.failed === 0 ? 0 : 1);
