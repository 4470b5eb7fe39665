/**
 * The `logs.batch-accepted` data the bus benchmarks publish: `logs` typical FiveM join logs of event number
 * `index` (ids unique per index and position, createdAt one millisecond apart from the event's time).
 */
import type { AcceptedLog, LogsBatchAccepted } from '@skald/contracts';

export const BENCH_EVENT_EPOCH = 1_700_000_000_000;

/** The time of event `index`: one second apart. */
export const eventTime = (index: number): number => BENCH_EVENT_EPOCH + index * 1000;

export function acceptedData(index: number, logs: number, serverId: string): LogsBatchAccepted {
  const at = eventTime(index);
  return {
    serverId,
    logs: Array.from({ length: logs }, (_, i) => ({
      id: `0195f2c4-${String(index).padStart(4, '0')}-7000-8000-${String(i).padStart(12, '0')}`,
      createdAt: at + i,
      level: 'info',
      type: 'player_join',
      resource: 'qb-core',
      message: 'Player joined the server, identifiers steam:110000112345678 license:abcdef0123',
      metadata: { citizenid: 'ABC12345', source: i },
      logType: 'text',
      imageKey: null,
      thumbKey: null,
    })),
  };
}

/**
 * Hands out the logs `logAt` makes, in order, as events of `perEvent` logs of one server: each call takes the
 * next `count` logs.
 */
export function eventSource(logAt: (index: number) => AcceptedLog, serverId: string, perEvent: number): (count: number) => LogsBatchAccepted[] {
  let next = 0;
  return (count) => {
    const events: LogsBatchAccepted[] = [];
    for (const end = next + count; next < end; ) {
      const logs: AcceptedLog[] = [];
      for (const stop = Math.min(end, next + perEvent); next < stop; next++) logs.push(logAt(next));
      events.push({ serverId, logs });
    }
    return events;
  };
}
