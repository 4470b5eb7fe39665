/**
 * One live tail (GET /logs/tail): the logs of one server matching the /logs/my filters, as server-sent
 * events, fed by the bus feed (bus-feed.ts: the batches any logs replica stored), never by polling the store.
 *
 * Resume without gaps or duplicates (Last-Event-ID = the last log id the client received):
 *   1. subscribe to the feed FIRST (it resolves once the feed is live) and hold what arrives;
 *   2. read the store for the matching logs after that id (newest `catchUpLimit`, sent oldest first);
 *   3. send what was held, skipping ids already sent, then go live.
 * A log stored before step 1 is found by step 2; one stored after it is held by step 1; one stored while
 * step 2 reads can be in both and is sent once (RecentIds). The `id:` line advances only (a log whose id
 * sorts before one already sent goes out without it), so a client never resumes from behind a log it has.
 * Logs arrive in id order from one ingestion process; what several ingestion replicas' clocks can do to
 * that order is in docs/DECISIONS.md (live tail).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { ApiLog, LogTailEnd, LogTailEventName } from '@skald/contracts';
import type { LogRecord, LogStore } from '@skald/ports';
import type { TailFeed } from './bus-feed.ts';
import { logIdTime } from './log-id.ts';
import { RecentIds } from './recent-ids.ts';
import { tailMatcher } from './tail-filter.ts';
import type { TailFilters } from './tail-filter.ts';

export interface TailSettings {
  /** A `: ping` comment this often (below every proxy's idle timeout: the gateway's upstream default is 15 s). */
  readonly heartbeatMs: number;
  /** A resume replays at most this many missed logs (the newest), and says how many it skipped. */
  readonly catchUpLimit: number;
  /** Unsent bytes at which a client counts as too slow and its tail is closed (it resumes from its last id). */
  readonly maxPendingBytes: number;
  /**
   * How far before the Last-Event-ID's arrival a resume reads by the logs' own time. A log's createdAt is its
   * client's time when ingestion took it, up to a day before its arrival; reading a day of a busy server's logs
   * on every reconnect would cost far more than the tail, so a resume replays the logs that arrived after the id
   * with a time at most this much before it (a client's batching, short retries, a clock a few minutes slow).
   * Older-stamped logs (a batch sent after an outage) reach open tails live and are on the list.
   */
  readonly resumeMarginMs: number;
}

export const DEFAULT_TAIL_SETTINGS: TailSettings = { heartbeatMs: 10_000, catchUpLimit: 1000, maxPendingBytes: 1024 * 1024, resumeMarginMs: 5 * 60_000 };

/** Where a tail writes its frames (the HTTP route gives it the response stream). */
export interface TailOutput {
  write(text: string): void;
  /** Bytes written but not yet taken by the client. */
  pending(): number;
  end(): void;
}

export interface LogTailDeps {
  readonly feed: TailFeed;
  readonly logStore: LogStore;
  readonly toApi: (record: LogRecord) => ApiLog;
  /** Asked at every heartbeat: null while the caller may still read the server, else why the tail ends. */
  readonly checkAccess: () => Promise<LogTailEnd | null>;
  readonly log: FastifyBaseLogger;
}

export interface LogTailRequest {
  readonly serverId: string;
  readonly filters: TailFilters;
  /** The Last-Event-ID the client resumes after (a log id), or null for a fresh tail. */
  readonly afterId: string | null;
}

/** An `end` event in the house error shape (`error` is the text shown, `message` repeats it). */
export function tailEnd(text: string, reconnect: boolean): LogTailEnd {
  return { error: text, message: text, reconnect };
}

export const TAIL_TOO_SLOW = tailEnd('The live tail fell behind and was closed. Reconnect to resume where it stopped.', true);
export const TAIL_READ_FAILED = tailEnd('The live tail could not read the logs it missed. Reconnect to try again.', true);
export const TAIL_FEED_FAILED = tailEnd('The live tail could not start. Reconnect to try again.', true);

export function sseFrame(event: LogTailEventName, data: unknown, id?: string): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export class LogTail {
  readonly #deps: LogTailDeps;
  readonly #settings: TailSettings;
  readonly #request: LogTailRequest;
  readonly #out: TailOutput;
  readonly #onClosed: () => void;
  readonly #matches: (record: LogRecord) => boolean;
  readonly #recent: RecentIds;
  #state: 'idle' | 'catching-up' | 'live' | 'closed' = 'idle';
  #held: LogRecord[] = [];
  /** The highest id sent, or the one resumed after. */
  #cursor: string;
  #unsubscribe: (() => void) | null = null;
  #timer: NodeJS.Timeout | null = null;

  constructor(deps: LogTailDeps, settings: TailSettings, request: LogTailRequest, out: TailOutput, onClosed: () => void) {
    this.#deps = deps;
    this.#settings = settings;
    this.#request = request;
    this.#out = out;
    this.#onClosed = onClosed;
    this.#matches = tailMatcher(request.filters);
    this.#recent = new RecentIds(Math.max(4096, settings.catchUpLimit * 2));
    this.#cursor = request.afterId ?? '';
  }

  get closed(): boolean {
    return this.#state === 'closed';
  }

  async start(): Promise<void> {
    if (this.#state !== 'idle') return;
    this.#state = 'catching-up';
    // An EventSource waits this long before reconnecting (its default is 3 s and browser-defined).
    this.#out.write('retry: 2000\n\n');
    try {
      const leave = await this.#deps.feed.subscribe(this.#request.serverId, (records) => this.#onStored(records));
      if (this.closed) {
        leave();
        return;
      }
      this.#unsubscribe = leave;
    } catch (error) {
      this.#deps.log.error({ err: error, serverId: this.#request.serverId }, 'logs: live tail feed failed to start');
      this.close(TAIL_FEED_FAILED);
      return;
    }
    let replayed = 0;
    if (this.#request.afterId !== null) {
      try {
        replayed = await this.#catchUp(this.#request.afterId);
      } catch (error) {
        this.#deps.log.error({ err: error, serverId: this.#request.serverId }, 'logs: live tail catch-up failed');
        this.close(TAIL_READ_FAILED);
        return;
      }
    }
    if (this.closed) return;
    this.#state = 'live';
    const held = this.#held;
    this.#held = [];
    for (const record of held) this.#send(record);
    this.#out.write(sseFrame('ready', { replayed }));
    this.#timer = setInterval(() => void this.#heartbeat(), this.#settings.heartbeatMs);
    this.#checkPending();
  }

  /** Ends the stream, with a last `end` event saying why when given. Idempotent. */
  close(end?: LogTailEnd): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    if (this.#timer) clearInterval(this.#timer);
    this.#unsubscribe?.();
    this.#held = [];
    if (end) this.#out.write(sseFrame('end', end));
    this.#out.end();
    this.#onClosed();
  }

  async #catchUp(afterId: string): Promise<number> {
    const { filters, serverId } = this.#request;
    // The createdAt bound keeps the read on the store's time index instead of a scan of the server's logs.
    const from = Math.max(filters.from ?? Number.NEGATIVE_INFINITY, logIdTime(afterId) - this.#settings.resumeMarginMs);
    const page = await this.#deps.logStore.query({ ...filters, serverId, from, afterId, offset: 0, limit: this.#settings.catchUpLimit });
    if (this.closed) return 0;
    const skipped = page.total - page.items.length;
    if (skipped > 0) {
      this.#out.write(
        sseFrame('skipped', { count: skipped, message: `${skipped} older logs arrived while disconnected and are not replayed here; the list shows them.` }),
      );
    }
    for (const record of [...page.items].reverse()) this.#send(record);
    return page.items.length;
  }

  #onStored(records: readonly LogRecord[]): void {
    if (this.#state === 'closed') return;
    const matching = records.filter(this.#matches);
    if (matching.length === 0) return;
    if (this.#state === 'catching-up') {
      this.#held.push(...matching);
      // Held logs are memory too: a catch-up slower than the server's log rate is a client we cannot keep up.
      if (this.#held.length > this.#settings.catchUpLimit * 10) this.close(TAIL_TOO_SLOW);
      return;
    }
    for (const record of matching) this.#send(record);
    this.#checkPending();
  }

  #send(record: LogRecord): void {
    if (!this.#recent.add(record.id)) return;
    const advances = record.id > this.#cursor;
    if (advances) this.#cursor = record.id;
    this.#out.write(sseFrame('log', this.#deps.toApi(record), advances ? record.id : undefined));
  }

  #checkPending(): void {
    if (this.#state !== 'closed' && this.#out.pending() > this.#settings.maxPendingBytes) this.close(TAIL_TOO_SLOW);
  }

  async #heartbeat(): Promise<void> {
    if (this.closed) return;
    this.#out.write(': ping\n\n');
    this.#checkPending();
    try {
      const end = await this.#deps.checkAccess();
      if (end) this.close(end);
    } catch (error) {
      // The read model failing once is not a reason to drop the viewer; the next beat asks again.
      this.#deps.log.warn({ err: error }, 'logs: live tail access check failed');
    }
  }
}
