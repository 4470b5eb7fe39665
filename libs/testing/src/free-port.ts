/**
 * A TCP port free on 127.0.0.1 for a process the test starts next.
 *
 * Picked below the kernel's ephemeral range (ip_local_port_range), never by bind(0): the kernel hands
 * ephemeral ports to every outgoing connection on the machine, so a port from that range could be taken by
 * some client socket between this probe and the child's bind (EADDRINUSE under load). Below the range only
 * another explicit bind can take it; candidates are random so concurrent test files rarely try the same one,
 * and each is probed (bound and closed) before it is returned.
 *
 * The tests' helper for it (through @skald/testing; the web app's end-to-end server keeps a copy, its project
 * may depend on the contracts only), also imported by path by the image's compile-cache warm-up
 * (scripts/warm-compile-cache.ts): the image holds libs/ but not the test kit's dependencies, so the warm-up
 * takes this file alone, not the kit's index.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const LOWEST = 20_000;

/** The first port of the kernel's ephemeral range (32768 on Linux by default). */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > LOWEST + 1_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

function probe(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** Ports this process handed out already: never the same one twice in one test process. */
const given = new Set<number>();

export async function freePort(): Promise<number> {
  const high = ephemeralLow();
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = LOWEST + Math.floor(Math.random() * (high - LOWEST));
    if (given.has(port)) continue;
    if (await probe(port)) {
      given.add(port);
      return port;
    }
  }
  throw new Error(`no free port found between ${LOWEST} and ${high} after 200 tries`);
}
