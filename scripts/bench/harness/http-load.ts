/**
 * HTTP load for the benchmarks: autocannon POSTs of a JSON body for BENCH_DURATION_S seconds, and the
 * bare-Fastify baseline every HTTP figure is printed beside (measured in the same run, same machine).
 */
import { createRequire } from 'node:module';
import Fastify from 'fastify';

/** The part of autocannon's API used here (the package ships no types; a local type avoids a global declaration). */
export interface AutocannonResult {
  readonly requests: { readonly average: number };
  readonly latency: { readonly p99: number };
  readonly '2xx': number;
  readonly non2xx: number;
  /** Seconds the measurement actually took. */
  readonly duration: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** Seconds per measurement (BENCH_DURATION_S, default 10). */
export const DURATION_S = Number(process.env['BENCH_DURATION_S'] ?? 10);

export async function postLoad(url: string, body: string, headers: Record<string, string>, connections: number, pipelining = 1): Promise<AutocannonResult> {
  return autocannon({
    url,
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
    connections,
    pipelining,
    duration: DURATION_S,
  });
}

/**
 * Successful answers per second. requests.average counts every answer, refusals included (a 429 is
 * answered fast), so no figure of accepted work may be built on it.
 */
export function okPerSecond(result: AutocannonResult): number {
  return result['2xx'] / result.duration;
}

/** The baseline: a bare Fastify POST endpoint answering 201 with a fresh id, loaded like the real one. */
export async function bareFastifyLoad(body: string, connections: number): Promise<AutocannonResult> {
  const app = Fastify({ logger: false });
  app.post('/bare', async (_request, reply) => reply.code(201).send({ id: crypto.randomUUID() }));
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    return await postLoad(`${address}/bare`, body, {}, connections);
  } finally {
    await app.close();
  }
}

/**
 * Posts the same JSON body `requests` times, `connections` requests in flight (fetch, each answer read
 * whole): how many were answered 201 and how many otherwise.
 */
export async function postRequests(
  url: string,
  body: string,
  headers: Record<string, string>,
  load: { readonly requests: number; readonly connections: number },
): Promise<{ created: number; refused: number }> {
  let next = 0;
  const counts = { created: 0, refused: 0 };
  await Promise.all(
    Array.from({ length: load.connections }, async () => {
      while (next < load.requests) {
        next += 1;
        const response = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
        await response.arrayBuffer();
        if (response.status === 201) counts.created += 1;
        else counts.refused += 1;
      }
    }),
  );
  return counts;
}
