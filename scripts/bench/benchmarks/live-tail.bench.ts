/**
 * The live tail, all-in-one: auth, ingestion and logs on the embedded adapters (the SQLite bus journal),
 * a tail open on GET /api/logs/tail (server-sent events, read over a real socket as a browser reads it),
 * and BENCH_TAIL_LOGS logs (default 500) posted one at a time through POST /api/logs, each after the
 * previous one reached the tail. Per log: the time from the POST's answer (the log accepted) to its event
 * on the tail, p50 / p95 / max, target p95 < 1 s (docs/LOGS_API.md: a log reaches open tails within a
 * second of its acceptance). The baseline, measured in the same run: the POST's own round trip.
 *
 * Run: `npm run bench -- live-tail` or `node scripts/bench/benchmarks/live-tail.bench.ts` (prints the rows).
 */
import { performance } from 'node:perf_hooks';
import type { ApiLog } from '@skald/contracts';
import { openEventStream } from '@skald/testing';
import type { SseEvent } from '@skald/testing';
import type { BenchRow } from '../harness/bench-row.ts';
import { startBenchAllInOne } from '../harness/bench-all-in-one.ts';
import { machineLoad, percentile } from '../harness/samples.ts';

const LOGS = Number(process.env['BENCH_TAIL_LOGS'] ?? 500);
/** Logs posted and awaited first, not counted: the first requests compile the routes and warm the store. */
const WARM_UP = 20;
const TARGET_MS = 1_000;
/** How long one log may take to reach the tail before it counts as missing (far past the target). */
const MISSING_AFTER_MS = 30_000;

const round = (ms: number): number => Number(ms.toFixed(2));

export async function run(): Promise<BenchRow[]> {
  const bench = await startBenchAllInOne({ name: 'live-tail', services: ['auth', 'ingestion', 'logs'] });
  try {
    const { id: serverId, apiKey } = await bench.legendServer('Tail');
    // The first tail a process opens starts its bus observer before `ready`.
    const tail = await openEventStream(`${bench.address}/api/logs/tail?serverId=${serverId}`, bench.auth);
    try {
      if (tail.status !== 200) throw new Error(`tail: ${tail.status} ${tail.text}`);
      await tail.waitForEvent((event) => event.event === 'ready', 'ready', MISSING_AFTER_MS);

      const roundTrips: number[] = [];
      const answerToEvent: number[] = [];
      let missing = 0;
      let beforeAnswer = 0;
      for (let i = 0; i < WARM_UP + LOGS; i += 1) {
        const message = `tail bench ${i}`;
        const sentAt = performance.now();
        const response = await fetch(`${bench.address}/api/logs`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
          body: JSON.stringify({ message, level: 'info', type: 'Bench', resource: 'tail' }),
        });
        await response.arrayBuffer();
        const answeredAt = performance.now();
        if (response.status !== 201) throw new Error(`POST /api/logs answered ${response.status}`);
        const isThisLog = (event: SseEvent): boolean => event.event === 'log' && (JSON.parse(event.data) as ApiLog).message === message;
        let event: SseEvent;
        try {
          event = await tail.waitForEvent(isThisLog, message, MISSING_AFTER_MS);
        } catch {
          if (i >= WARM_UP) missing += 1;
          continue;
        }
        if (i < WARM_UP) continue;
        roundTrips.push(answeredAt - sentAt);
        // The tail can dispatch the frame before this process reads the POST's answer: that counts as 0.
        if (event.receivedAt < answeredAt) beforeAnswer += 1;
        answerToEvent.push(Math.max(0, event.receivedAt - answeredAt));
      }

      if (answerToEvent.length === 0) throw new Error(`none of the ${LOGS} logs reached the tail`);
      roundTrips.sort((a, b) => a - b);
      answerToEvent.sort((a, b) => a - b);
      const p95 = percentile(answerToEvent, 95);
      const baseline = `POST round trip p50 ${round(percentile(roundTrips, 50))} ms, p95 ${round(percentile(roundTrips, 95))} ms`;
      const note = `${LOGS} logs one at a time after ${WARM_UP} warm-up; ${missing} missing after ${MISSING_AFTER_MS / 1000} s; ${beforeAnswer} on the tail before the POST's answer was read; ${machineLoad()} at the end`;
      return [
        { name: 'POST /api/logs round trip p50', value: round(percentile(roundTrips, 50)), unit: 'ms' },
        { name: 'POST /api/logs round trip p95', value: round(percentile(roundTrips, 95)), unit: 'ms' },
        { name: 'POST answer to tail event p50', value: round(percentile(answerToEvent, 50)), unit: 'ms', baseline },
        { name: 'POST answer to tail event p95', value: round(p95), unit: 'ms', target: `< ${TARGET_MS} ms`, pass: missing === 0 && p95 < TARGET_MS, baseline, note },
        { name: 'POST answer to tail event max', value: round(answerToEvent.at(-1) ?? Number.NaN), unit: 'ms' },
      ];
    } finally {
      tail.close();
    }
  } finally {
    await bench.close();
  }
}

export default run;

if (import.meta.main) console.table(await run());
