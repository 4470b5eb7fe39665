/**
 * The HTTP client of players-ingest-api.ts, in a process of its own (PinnedChild) so that the process under
 * test reports its own CPU only. `prepare` builds the request bodies of the players benchmark's logs
 * `from`..`from + count` (logAt: players named in metadata and text, as the FiveM resource writes them), in
 * requests of `batch` logs, before any clock starts; `post` sends them to POST /api/logs over `connections`
 * connections and answers how many logs were created. A 503 (the embedded bus pacing producers while a
 * consumer is behind) is sent again after its Retry-After, so every prepared log is stored in the end.
 */
import type { AcceptedLog } from '@skald/contracts';
import { serve } from '../harness/pinned/child-rpc.ts';
import { logAt } from '../benchmarks/players.bench.ts';

export interface PrepareBodies {
  readonly from: number;
  readonly count: number;
  readonly batch: number;
}

export interface PostBodies {
  readonly url: string;
  readonly apiKey: string;
  readonly connections: number;
}

export interface Posted {
  readonly logs: number;
  readonly requests: number;
  /** Requests answered 503 and sent again. */
  readonly retried: number;
}

/** A log as the native route takes it (no timestamp: the benchmark's times span 30 days, the route's window one). */
function bodyLogOf(log: AcceptedLog): Record<string, unknown> {
  return { message: log.message, level: log.level, type: log.type, resource: log.resource, ...(log.metadata === null ? {} : { metadata: log.metadata }) };
}

let bodies: { readonly body: string; readonly logs: number }[] = [];

serve({
  prepare({ from, count, batch }: PrepareBodies): number {
    bodies = [];
    for (let start = from; start < from + count; start += batch) {
      const logs: Record<string, unknown>[] = [];
      for (let i = start; i < Math.min(from + count, start + batch); i++) logs.push(bodyLogOf(logAt(i)));
      bodies.push({ body: JSON.stringify(logs), logs: logs.length });
    }
    return bodies.length;
  },
  async post({ url, apiKey, connections }: PostBodies): Promise<Posted> {
    const headers = { 'content-type': 'application/json', 'x-api-key': apiKey };
    const posted = { logs: 0, requests: 0, retried: 0 };
    let next = 0;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (next < bodies.length) {
          const { body, logs } = bodies[next++]!;
          for (;;) {
            const response = await fetch(url, { method: 'POST', headers, body });
            await response.arrayBuffer();
            posted.requests++;
            if (response.status === 201) break;
            if (response.status !== 503) throw new Error(`POST /api/logs answered ${response.status}`);
            posted.retried++;
            const wait = Number(response.headers.get('retry-after') ?? 1) * 1000;
            await new Promise((resolve) => setTimeout(resolve, Math.min(wait, 1000)));
          }
          posted.logs += logs;
        }
      }),
    );
    return posted;
  },
});
