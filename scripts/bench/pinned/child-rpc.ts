/**
 * The child side of PinnedChild: answers `{ id, command, payload }` requests from the parent with
 * `{ id, ok, value | error }`. `stop` runs the child's own stop handler (if any), answers, and exits.
 */
export type Handlers = Readonly<Record<string, (payload: never) => unknown>>;

interface Request {
  readonly id: number;
  readonly command: string;
  readonly payload: unknown;
}

/**
 * Commands every child answers. `cpu`: CPU time this process has used (user + system, all threads), in
 * microseconds. CPU per request is what a server under test costs whatever else the machine runs: a
 * process that is descheduled serves fewer requests per second but spends the same CPU on each.
 */
const BUILT_IN: Handlers = {
  cpu: () => {
    const used = process.cpuUsage();
    return used.user + used.system;
  },
};

export function serve(handlers: Handlers): void {
  if (process.send === undefined) throw new Error('run this file through PinnedChild (it needs the IPC channel)');
  const send = process.send.bind(process);
  process.on('message', (raw) => {
    const request = raw as Request;
    const handler = (handlers[request.command] ?? BUILT_IN[request.command]) as ((payload: unknown) => unknown) | undefined;
    void (async () => {
      try {
        if (handler === undefined && request.command !== 'stop') throw new Error(`unknown command ${request.command}`);
        const value = handler === undefined ? null : await handler(request.payload);
        send({ id: request.id, ok: true, value: value ?? null });
      } catch (error) {
        send({ id: request.id, ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      }
      if (request.command === 'stop') process.disconnect();
    })();
  });
  // The parent sends nothing before this: a request sent while the child was still starting could
  // arrive before the listener above existed.
  send({ ready: true });
}

/** Resident set size of this process now, in bytes. */
export function rssBytes(): number {
  return process.memoryUsage.rss();
}

/** Samples RSS every 25 ms between start() and stop(); stop() answers the highest sample. */
export class PeakRss {
  #peak = 0;
  #timer: NodeJS.Timeout | null = null;

  start(): void {
    this.#peak = rssBytes();
    this.#timer = setInterval(() => {
      this.#peak = Math.max(this.#peak, rssBytes());
    }, 25);
  }

  stop(): number {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    return Math.max(this.#peak, rssBytes());
  }
}
