/**
 * The Redis Streams bus's observers (EventBus.observe): XREAD BLOCK without a consumer group, from
 * each stream's newest entry at start, on a connection of its own. The position lives in this process
 * only, so nothing is left in Redis (no group, no consumer, no pending entry) and the acknowledged-entry
 * trim (XTRIM MINID over the groups) ignores observers. An observer reads what the stream still holds:
 * one that fell behind the MAXLEN cap would skip what was trimmed; one that keeps up misses nothing.
 */
import type { Redis } from 'ioredis';
import type { ObserveOptions, Subscription } from '@skald/ports';
import { describeFailure, sleep } from '../delivery.ts';
import { deliverToObserver } from '../observation.ts';
import { decodeEntry, rawEntriesByStream } from './stream-replies.ts';

const READ_COUNT = 100;
const ERROR_BACKOFF_MS = 1_000;

/** The id of the stream's newest entry ('0-0' for an empty stream): reading after it gives only what comes next. */
async function newestId(client: Redis, key: string): Promise<string> {
  const reply = await client.call('XREVRANGE', [key, '+', '-', 'COUNT', 1]);
  if (Array.isArray(reply) && Array.isArray(reply[0]) && typeof reply[0][0] === 'string') return reply[0][0];
  return '0-0';
}

export async function startStreamObserver(
  client: Redis,
  prefix: string,
  blockMs: number,
  options: ObserveOptions,
  onStopped: () => void,
): Promise<Subscription> {
  const keyToTopic = new Map([...new Set(options.topics)].map((topic) => [prefix + topic, topic]));
  const positions = new Map<string, string>();
  // Taken before observe() resolves: every entry added afterwards has a greater id.
  for (const key of keyToTopic.keys()) positions.set(key, await newestId(client, key));
  const controller = new AbortController();
  const signal = controller.signal;
  // XREAD BLOCK holds its connection, and stop() wakes it with CLIENT UNBLOCK (hence its id).
  const blocking = client.duplicate();
  blocking.on('error', () => undefined);
  let blockingClientId: number | null = null;
  blocking.on('ready', () => {
    void blocking.client('ID').then((id) => (blockingClientId = Number(id)), () => undefined);
  });

  const run = async (): Promise<void> => {
    while (!signal.aborted) {
      try {
        const keys = [...positions.keys()];
        const reply = await blocking.call('XREAD', ['COUNT', READ_COUNT, 'BLOCK', blockMs, 'STREAMS', ...keys, ...keys.map((key) => positions.get(key)!)]);
        for (const [key, entries] of rawEntriesByStream(reply)) {
          const topic = keyToTopic.get(key);
          if (topic === undefined) continue;
          for (const entry of entries) {
            if (signal.aborted) return;
            // Skipped entries (filtered out, or deleted ones Redis returns without fields) still move the position.
            const decoded = options.filter?.(entry.key, topic) === false ? null : decodeEntry(entry.raw);
            if (decoded !== null) await deliverToObserver({ ...decoded.message, topic }, options);
            positions.set(key, entry.streamId);
          }
        }
      } catch (error) {
        if (signal.aborted) break;
        console.warn(`event bus (redis): an observer failed, retrying: ${describeFailure(error)}`);
        await sleep(ERROR_BACKOFF_MS, signal);
      }
    }
  };
  const done = run();
  let stopping: Promise<void> | null = null;
  return {
    stop() {
      stopping ??= (async () => {
        controller.abort();
        if (blockingClientId !== null) await client.call('CLIENT', ['UNBLOCK', blockingClientId]).catch(() => undefined);
        await done;
        blocking.disconnect();
        onStopped();
      })();
      return stopping;
    },
  };
}
