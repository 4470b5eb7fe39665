/**
 * Every live tail of this process: the bus feed (every logs replica's stored batches), the per-server and
 * per-process bounds, and the open tails (closed with an `end` event when the service stops, so that
 * clients reconnect elsewhere instead of seeing a silent drop).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { LogTailEnd } from '@skald/contracts';
import type { EventBus, LogStore } from '@skald/ports';
import { createBusLiveFeed } from './bus-feed.ts';
import type { BusFeedSettings, BusLiveFeed } from './bus-feed.ts';
import { DEFAULT_TAIL_SETTINGS, LogTail, tailEnd } from './log-tail.ts';
import type { LogTailDeps, LogTailRequest, TailOutput, TailSettings } from './log-tail.ts';
import { createTailSlots } from './tail-slots.ts';
import type { SlotRefusal, TailSlots } from './tail-slots.ts';

export interface LiveTailOptions extends Partial<TailSettings> {
  /** Open tails one server may have (every member's tabs together). Default 10. */
  readonly perServer?: number;
  /** Open tails this process serves. Default 500. */
  readonly perInstance?: number;
  /** Timings of the bus feed (bus-feed.ts). */
  readonly feed?: Partial<BusFeedSettings>;
}

export type OpenTailResult = { readonly ok: true; readonly tail: LogTail } | { readonly ok: false; readonly refusal: SlotRefusal };

export interface LiveTails {
  readonly feed: BusLiveFeed;
  readonly slots: TailSlots;
  /** Takes a slot and builds the tail (not started), or says which bound refused it. */
  open(access: LogTailDeps['checkAccess'], toApi: LogTailDeps['toApi'], request: LogTailRequest, out: TailOutput): OpenTailResult;
  closeAll(end: LogTailEnd): void;
}

export interface LiveTailDeps {
  readonly bus: EventBus;
  readonly logStore: LogStore;
  readonly log: FastifyBaseLogger;
}

export const TAIL_SHUTDOWN: LogTailEnd = tailEnd('The server is restarting. The live tail reconnects by itself.', true);

export function createLiveTails({ bus, logStore, log }: LiveTailDeps, options: LiveTailOptions = {}): LiveTails {
  const { perServer = 10, perInstance = 500, feed: feedSettings, ...overrides } = options;
  const settings: TailSettings = { ...DEFAULT_TAIL_SETTINGS, ...overrides };
  const feed = createBusLiveFeed({ bus, logStore, log }, feedSettings);
  const slots = createTailSlots(perServer, perInstance);
  const open = new Set<LogTail>();
  return {
    feed,
    slots,
    open(checkAccess, toApi, request, out) {
      const slot = slots.acquire(request.serverId);
      if (!slot.ok) return slot;
      const tail = new LogTail({ feed, logStore, toApi, checkAccess, log }, settings, request, out, () => {
        open.delete(tail);
        slot.release();
      });
      open.add(tail);
      return { ok: true, tail };
    },
    closeAll(end) {
      for (const tail of [...open]) tail.close(end);
    },
  };
}
