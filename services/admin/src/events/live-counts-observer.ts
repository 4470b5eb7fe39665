/**
 * The logs service's live counts (logs.server-counts-live, TOPICS.logCountsLive) as every admin replica sees
 * them: an observer, not a consumer group, because each replica keeps them in its own memory
 * (domain/server-mirror.ts) and none writes them to the store (the history facts do that, once a minute).
 * It reads from the moment it starts; what came before is in the store's figures, at most a minute older.
 */
import { LogsServerCountsLiveEvent, observeEvents, on } from '@skald/contracts';
import type { BusMessage, EventBus, Subscription } from '@skald/ports';
import type { ServerMirror } from '../domain/server-mirror.ts';

export function startLiveCountsObserver(
  bus: EventBus,
  mirror: Pick<ServerMirror, 'applyLiveCounts'>,
  onError: (error: unknown, message: BusMessage) => void,
): Promise<Subscription> {
  return observeEvents(bus, {
    handlers: [on(LogsServerCountsLiveEvent, async (fact) => mirror.applyLiveCounts(fact))],
    onError,
  });
}
