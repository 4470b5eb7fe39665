/**
 * The alert rules' CPU a batch, measured apart from the bench's other parts and steadier than them: the
 * alerts bench's 100 rules and realistic FiveM batches (each parsed from its JSON text in the loop, as the
 * bench's evaluator part does), in rounds alternating with a server without rules (the evaluator) or with
 * no call at all (the matcher), this thread's CPU per batch of 100 logs. Prints the medians and the median
 * of the paired differences.
 *
 *   node scripts/bench/tools/alerts-evaluator.ts   (ALERTS_PART=evaluator|matcher|overhead, ALERTS_ROUNDS=60, ALERTS_BATCHES=500, ALERTS_CLOCK_MS=5)
 *
 * ALERTS_MATCHER_B=<path of another alert-matcher.ts>: the matcher part compares that matcher (B) with this
 * tree's (A) in alternating rounds instead; ALERTS_EVALUATOR_B=<path of another alert-evaluator.ts>, the
 * evaluator part that evaluator with this tree's, both on the server with rules (a copy of an earlier
 * `domain/alerts` folder beside this one, so that its imports resolve). ALERTS_PART=overhead: the evaluator
 * with rules against a server without plus the matcher alone (the evaluator's own work around the matcher). Add --cpu-prof or --trace-gc to the node command line to see
 * where a round's time goes.
 */
import type { AcceptedLog, AlertFilter } from '@skald/contracts';
import { createTestDeps } from '@skald/testing';
import { ALERT_LIMITS } from '@skald/contracts';
import { T0, WITHOUT_RULES, WITH_RULES, benchBatch, benchEvaluator, ruleBodies } from '../benchmarks/alerts.bench.ts';
import type { createAlertEvaluator } from '../../../services/webhooks/src/domain/alerts/alert-evaluator.ts';
import { createRuleMatcher } from '../../../services/webhooks/src/domain/alerts/alert-matcher.ts';

const PART = process.env['ALERTS_PART'] ?? 'evaluator';
const ROUNDS = Number(process.env['ALERTS_ROUNDS'] ?? 60);
const BATCHES = Number(process.env['ALERTS_BATCHES'] ?? 500);
const MATCHER_B = process.env['ALERTS_MATCHER_B'];
/** How far the evaluator's clock moves a batch (the bench's evaluator part: 5 ms); the absence clocks are written once a second of it. */
const CLOCK_MS = Number(process.env['ALERTS_CLOCK_MS'] ?? 5);
/** `a` or `b`: run that side alone (for --trace-gc or a profile of one side). */
const ONLY_SIDE = process.env['ALERTS_SIDE'];

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const quartiles = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `${sorted[Math.floor(sorted.length / 4)]!.toFixed(1)} to ${sorted[Math.floor((sorted.length * 3) / 4)]!.toFixed(1)}`;
};

const kinds = Array.from({ length: 50 }, (_, i) => JSON.stringify(benchBatch(WITH_RULES, i).logs));
let index = 0;
const nextLogs = () => {
  index += 1;
  const logs = JSON.parse(kinds[index % kinds.length]!) as AcceptedLog[];
  logs[0] = { ...logs[0]!, id: `bench-${index}` };
  return logs;
};

type Side = (logs: AcceptedLog[]) => Promise<void> | void;
async function round(side: Side): Promise<number> {
  const cpu = process.threadCpuUsage();
  for (let i = 0; i < BATCHES; i++) await side(nextLogs());
  const used = process.threadCpuUsage(cpu);
  return (used.user + used.system) / BATCHES;
}

async function sides(): Promise<[string, Side, string, Side, () => Promise<void>]> {
  if (PART === 'matcher') {
    type Rule = { readonly filter: AlertFilter };
    const rules: Rule[] = ruleBodies(WITH_RULES).map(({ filter }) => ({ filter }));
    const a = createRuleMatcher(rules, ALERT_LIMITS.sampleSize);
    let sink = 0;
    const matchA: Side = (logs) => {
      for (const found of a.match(logs)) sink += found.count;
    };
    if (MATCHER_B === undefined) return ['matcher', matchA, 'no call', () => undefined, async () => void (sink > 0 || console.log('no match'))];
    const other = (await import(MATCHER_B)) as { createRuleMatcher: typeof createRuleMatcher };
    const b = other.createRuleMatcher(rules, ALERT_LIMITS.sampleSize);
    const matchB: Side = (logs) => {
      for (const found of b.match(logs)) sink += found.count;
    };
    return ['matcher A (this tree)', matchA, `matcher B (${MATCHER_B})`, matchB, async () => void (sink > 0 || console.log('no match'))];
  }
  const deps = await createTestDeps({ service: 'webhooks' });
  let now = T0;
  const evaluator = await benchEvaluator(deps, () => now);
  const call = (serverId: string): Side => (logs) => {
    now += CLOCK_MS;
    return evaluator.onBatches([{ serverId, logs }]);
  };
  const EVALUATOR_B = process.env['ALERTS_EVALUATOR_B'];
  if (EVALUATOR_B !== undefined) {
    // Two evaluators on stores of their own (each with the 100 rules), the server with rules on both.
    const depsB = await createTestDeps({ service: 'webhooks' });
    const other = (await import(EVALUATOR_B)) as { createAlertEvaluator: typeof createAlertEvaluator };
    const evaluatorB = await benchEvaluator(depsB, () => now, other.createAlertEvaluator);
    const callB: Side = (logs) => {
      now += CLOCK_MS;
      return evaluatorB.onBatches([{ serverId: WITH_RULES, logs }]);
    };
    return ['evaluator A (this tree), with rules', call(WITH_RULES), `evaluator B (${EVALUATOR_B}), with rules`, callB, async () => {
      await evaluator.flush();
      await evaluatorB.flush();
      await deps.cleanup();
      await depsB.cleanup();
    }];
  }
  if (PART === 'overhead') {
    // The evaluator's own work around the matcher: with rules, against a server without plus the same matcher.
    type Rule = { readonly filter: AlertFilter };
    const matcher = createRuleMatcher<Rule>(ruleBodies(WITH_RULES).map(({ filter }) => ({ filter })), ALERT_LIMITS.sampleSize);
    let sink = 0;
    const without = call(WITHOUT_RULES);
    const withMatcher: Side = (logs) => {
      for (const found of matcher.match(logs)) sink += found.count;
      return without(logs);
    };
    return ['with rules', call(WITH_RULES), 'without + the matcher alone', withMatcher, async () => {
      if (sink === 0) console.log('no match');
      await evaluator.flush();
      await deps.cleanup();
    }];
  }
  return ['with rules', call(WITH_RULES), 'without', call(WITHOUT_RULES), async () => {
    await evaluator.flush();
    await deps.cleanup();
  }];
}

const [nameA, sideA, nameB, sideB, close] = await sides();
const a = ONLY_SIDE === 'b' ? sideB : sideA;
const b = ONLY_SIDE === 'a' ? sideA : sideB;
await round(a);
await round(b);
const resultA: number[] = [];
const resultB: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  if (r % 2 === 0) {
    resultA.push(await round(a));
    resultB.push(await round(b));
  } else {
    resultB.push(await round(b));
    resultA.push(await round(a));
  }
}
await close();
const differences = resultA.map((x, i) => x - resultB[i]!);
console.log(`${PART}: ${ROUNDS} rounds of ${BATCHES} batches of 100 logs, this thread's CPU a batch`);
console.log(`  ${nameA}: ${median(resultA).toFixed(1)} µs (quartiles ${quartiles(resultA)})`);
console.log(`  ${nameB}: ${median(resultB).toFixed(1)} µs (quartiles ${quartiles(resultB)})`);
console.log(`  A - B, median of pairs: ${median(differences).toFixed(1)} µs (quartiles ${quartiles(differences)})`);
