/**
 * The client of the retention benchmark, in a process of its own (PinnedChild, on the load CPU): single-log POSTs
 * at a steady rate, open loop. Each request is sent at its scheduled time whether or not the ones before it were
 * answered, and its latency runs from that scheduled time to the end of its answer: a server that stalls for
 * 200 ms shows as the ~200 ms of every request due meanwhile, not as one slow request (no coordinated omission).
 *
 * Commands: begin (starts sending; answers at once), end (stops sending, waits for the answers still due and
 * answers every request's scheduled time, latency and status).
 */
import { serve } from './pinned/child-rpc.ts';

export interface SteadyLoad {
  readonly url: string;
  readonly body: string;
  readonly headers: Record<string, string>;
  /** Requests a second. */
  readonly rate: number;
}

/** One request: when it was due (epoch ms), how long until its answer was read (ms), its status (0: failed). */
export interface SteadySample {
  readonly at: number;
  readonly ms: number;
  readonly status: number;
}

const epochMs = (): number => performance.timeOrigin + performance.now();

let running: { timer: NodeJS.Timeout | null; stopped: boolean; inFlight: Set<Promise<void>>; samples: SteadySample[] } | null = null;

function start(load: SteadyLoad): void {
  if (running !== null) throw new Error('already sending');
  if (!(load.rate > 0)) throw new RangeError('rate must be positive');
  const state = { timer: null as NodeJS.Timeout | null, stopped: false, inFlight: new Set<Promise<void>>(), samples: [] as SteadySample[] };
  running = state;
  const period = 1000 / load.rate;
  const headers = { ...load.headers, 'content-type': 'application/json' };
  const send = (due: number): void => {
    const request = (async () => {
      let status: number;
      try {
        const response = await fetch(load.url, { method: 'POST', headers, body: load.body });
        await response.arrayBuffer();
        status = response.status;
      } catch {
        status = 0;
      }
      state.samples.push({ at: performance.timeOrigin + due, ms: performance.now() - due, status });
    })();
    state.inFlight.add(request);
    void request.finally(() => state.inFlight.delete(request));
  };
  let next = performance.now();
  const tick = (): void => {
    if (state.stopped) return;
    const now = performance.now();
    // Every request due by now goes, even when this timer fired late (the client's own loop was busy).
    while (next <= now) {
      send(next);
      next += period;
    }
    state.timer = setTimeout(tick, Math.max(0, next - performance.now()));
  };
  tick();
}

async function stop(): Promise<SteadySample[]> {
  const state = running;
  if (state === null) throw new Error('not sending');
  state.stopped = true;
  if (state.timer !== null) clearTimeout(state.timer);
  while (state.inFlight.size > 0) await Promise.all([...state.inFlight]);
  running = null;
  return state.samples.sort((a, b) => a.at - b.at);
}

// Not `stop`: child-rpc.ts ends the process after a `stop`.
serve({ begin: start, end: stop, now: epochMs });
