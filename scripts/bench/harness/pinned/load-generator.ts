/**
 * The load generator of the pinned benchmark: autocannon in a process of its own (on the load CPU),
 * answering one `post` request per measurement with the figures the orchestrator needs.
 */
import { createRequire } from 'node:module';
import { serve } from './child-rpc.ts';

export interface PostLoad {
  readonly url: string;
  readonly headers: Record<string, string>;
  /** The body as text, or base64 of bytes when `base64` is set (multipart photo bodies). */
  readonly body: string;
  readonly base64?: boolean;
  readonly connections: number;
  readonly seconds: number;
}

export interface LoadResult {
  /** Answers with a 2xx status. */
  readonly ok: number;
  readonly non2xx: number;
  /** Answers per status code, e.g. { "201": 51234 }. */
  readonly statusCodes: Record<string, number>;
  readonly errors: number;
  readonly timeouts: number;
  readonly p50: number;
  readonly p99: number;
  /** Seconds the measurement took (autocannon's own figure). */
  readonly seconds: number;
}

interface AutocannonResult {
  readonly latency: { readonly p50: number; readonly p99: number };
  readonly '2xx': number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly duration: number;
  readonly statusCodeStats?: Record<string, { readonly count: number }>;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

serve({
  async post(load: PostLoad): Promise<LoadResult> {
    const result = await autocannon({
      url: load.url,
      method: 'POST',
      body: load.base64 === true ? Buffer.from(load.body, 'base64') : load.body,
      headers: load.headers,
      connections: load.connections,
      duration: load.seconds,
    });
    const statusCodes: Record<string, number> = {};
    for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stat.count;
    return {
      ok: result['2xx'],
      non2xx: result.non2xx,
      statusCodes,
      errors: result.errors,
      timeouts: result.timeouts,
      p50: result.latency.p50,
      p99: result.latency.p99,
      seconds: result.duration,
    };
  },
});
