/**
 * A server's alert rules kept in memory between bus reads, with what evaluating a batch needs ready: the
 * rules served (enabled, within the tier's limit), one matcher for them (alert-matcher.ts), each threshold
 * rule's window and when its absence clock was last written.
 * Staying true without a read per batch: every write evaluation depends on (a rule created, edited or
 * deleted, a transition) moves the server's version in the store. This replica's own writes go through its
 * AlertStore object, which tells the cache at once (onVersionMoved); another replica's are seen by reading
 * the version at most once a second per server (REFRESH_MS, with the server's tier and suspension from the
 * identity read model). When it moved, the server's rules and windows are read again. The windows then go
 * on in memory with this replica's own batches: what other replicas count reaches them at the next reload,
 * and the tick decides from the stored sum meanwhile (docs/ALERTS.md, "Evaluation").
 */
import { ALERT_LIMITS, tierOf } from '@skald/contracts';
import type { ServerDirectory } from '../limits.ts';
import { createRuleMatcher } from './alert-matcher.ts';
import type { RuleMatcher } from './alert-matcher.ts';
import { bucketMsOf } from './alert-store.ts';
import type { AlertRule, AlertStore } from './alert-store.ts';

/**
 * How long a server's version, tier and suspension are taken from memory (wall time, not the evaluation
 * clock): a write of another replica, a downgrade or a suspension applies here within this. Reading the
 * version per bus read instead cost more than the matching (docs/ALERTS.md, "Cost").
 */
export const REFRESH_MS = 1_000;
/** Servers kept in memory at most; the least recently evaluated one makes room. */
const MAX_SERVERS = 10_000;

/** A rule's window in memory: counts per bucket, oldest first, and their sum. */
export class LocalWindow {
  readonly #windowMs: number;
  readonly #bucketMs: number;
  readonly #starts: number[] = [];
  readonly #counts: number[] = [];
  #head = 0;
  #total = 0;

  constructor(windowSeconds: number, buckets: ReadonlyMap<number, number> = new Map()) {
    this.#windowMs = windowSeconds * 1000;
    this.#bucketMs = bucketMsOf(windowSeconds);
    for (const [start, count] of [...buckets].sort((a, b) => a[0] - b[0])) {
      this.#starts.push(start);
      this.#counts.push(count);
      this.#total += count;
    }
  }

  add(at: number, count: number): void {
    const start = Math.floor(at / this.#bucketMs) * this.#bucketMs;
    const last = this.#starts.length - 1;
    // A clock that steps back a little adds to the newest bucket rather than reordering.
    if (last >= this.#head && this.#starts[last]! >= start) this.#counts[last]! += count;
    else {
      this.#starts.push(start);
      this.#counts.push(count);
    }
    this.#total += count;
  }

  /** Matching logs in the window ending at `at` (buckets starting after at - window, as the store counts). */
  count(at: number): number {
    const after = at - this.#windowMs;
    while (this.#head < this.#starts.length && this.#starts[this.#head]! <= after) {
      this.#total -= this.#counts[this.#head]!;
      this.#head += 1;
    }
    if (this.#head > 1024 && this.#head * 2 > this.#starts.length) {
      this.#starts.splice(0, this.#head);
      this.#counts.splice(0, this.#head);
      this.#head = 0;
    }
    return this.#total;
  }
}

/** The rules a server's logs are evaluated against, from all its rules (oldest first): enabled, within the tier's limit. */
export function servedOf(all: readonly AlertRule[], limit: number): AlertRule[] {
  return limit <= 0 ? [] : all.slice(0, limit).filter((rule) => rule.enabled);
}

export interface ServerState {
  readonly served: readonly AlertRule[];
  readonly matcher: RuleMatcher<AlertRule>;
  readonly windows: ReadonlyMap<string, LocalWindow>;
  /** Rule id -> when this replica last wrote its absence clock. */
  readonly touched: Map<string, number>;
}

interface Entry {
  readonly version: number;
  readonly rules: readonly AlertRule[];
  limit: number;
  state: ServerState | null;
  /** Wall time the version and the server's view were last read. */
  checkedAt: number;
}

export interface ServerCache {
  /** The server's evaluation state for a read at `at`; null when no rule of it is served. */
  get(serverId: string, at: number): Promise<ServerState | null>;
  /** Forgets the server: its next read loads the rules again (a transition this replica lost to another). */
  invalidate(serverId: string): void;
}

export interface ServerCacheDeps {
  readonly alerts: AlertStore;
  readonly directory: Pick<ServerDirectory, 'server'>;
  /** Wall clock of the refreshes; default performance.now. */
  readonly wallMs?: () => number;
}

export function createServerCache(deps: ServerCacheDeps): ServerCache {
  const wallMs = deps.wallMs ?? (() => performance.now());
  const entries = new Map<string, Entry>();
  /**
   * Servers whose version moved through this replica's store since their entry was read: checked when a read
   * starts, so a write landing while a read is loading the rules still makes the next read load them again.
   */
  const moved = new Set<string>();
  const invalidate = (serverId: string) => {
    moved.add(serverId);
  };
  deps.alerts.onVersionMoved(invalidate);

  async function limitOf(serverId: string): Promise<number> {
    const server = await deps.directory.server(serverId);
    return server === null || server.suspended ? 0 : tierOf(server.tier).maxAlertRules;
  }

  async function build(serverId: string, rules: readonly AlertRule[], limit: number, at: number): Promise<ServerState | null> {
    const served = servedOf(rules, limit);
    if (served.length === 0) return null;
    const stored = await deps.alerts.windows(serverId, served, at);
    const windows = new Map(served.filter((r) => r.kind === 'threshold').map((r) => [r.id, new LocalWindow(r.windowSeconds, stored.get(r.id))]));
    return { served, matcher: createRuleMatcher(served, ALERT_LIMITS.sampleSize), windows, touched: new Map() };
  }

  async function load(serverId: string, at: number, wall: number, known: Entry | undefined): Promise<Entry> {
    const version = await deps.alerts.version(serverId);
    const limit = await limitOf(serverId);
    if (known !== undefined && known.version === version) {
      known.checkedAt = wall;
      if (limit !== known.limit) {
        known.limit = limit;
        known.state = await build(serverId, known.rules, limit, at);
      }
      return known;
    }
    const rules = await deps.alerts.list(serverId);
    return { version, rules, limit, state: rules.length === 0 ? null : await build(serverId, rules, limit, at), checkedAt: wall };
  }

  return {
    invalidate,
    async get(serverId, at) {
      let entry = entries.get(serverId);
      if (entry !== undefined) {
        // Most recently used last: the first entry is the one to drop when full.
        entries.delete(serverId);
        entries.set(serverId, entry);
      }
      const wall = wallMs();
      const stale = moved.delete(serverId);
      if (entry === undefined || stale || wall - entry.checkedAt >= REFRESH_MS) {
        entry = await load(serverId, at, wall, stale ? undefined : entry);
        entries.set(serverId, entry);
        if (entries.size > MAX_SERVERS) entries.delete(entries.keys().next().value!);
      }
      return entry.state;
    },
  };
}
