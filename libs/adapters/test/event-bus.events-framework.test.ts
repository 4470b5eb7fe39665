/**
 * The event contracts framework (libs/contracts/src/events/framework.ts) delivering through the
 * real in-process bus: routing by event type, dead-lettering what can never succeed, retries.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Type from 'typebox';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deadLetterTopic } from '@skald/ports';
import type { BusMessage, EventBus } from '@skald/ports';
import { EVENT_TYPE_HEADER, defineEvent, eventMessage, observeEvents, on, onBatch, publishEvent, subscribeEvents } from '@skald/contracts';
import { createEventBus } from '../src/event-bus/index.ts';

const TOPIC = 'test.things.v1';
const ThingCreated = defineEvent({
  name: 'thing.created',
  version: 1,
  topic: TOPIC,
  schema: Type.Object({ thingId: Type.String({ minLength: 1 }), size: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
});
const ThingCreatedV2 = defineEvent({
  name: 'thing.created',
  version: 2,
  topic: TOPIC,
  schema: Type.Object({ thingId: Type.String(), sizeCm: Type.Number() }),
});
// A plain descriptor, as the domain files write them, works like a defined event.
const ThingDeleted = { name: 'thing.deleted', version: 1, topic: TOPIC, schema: Type.Object({ thingId: Type.String() }) } as const;

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('publishEvent / subscribeEvents on the in-process bus', () => {
  let dir: string;
  let bus: EventBus;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'skald-events-'));
    bus = await createEventBus({ kind: 'memory', file: join(dir, 'journal.db') });
    await bus.ensureTopics([TOPIC]);
  });
  afterEach(async () => {
    await bus.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('observeEvents: routes by type, hands invalid events to onError (no dead letter), skips other types and filtered keys', async () => {
    const created: string[] = [];
    const errors: string[] = [];
    const observer = await observeEvents(bus, {
      handlers: [on(ThingCreated, async (data) => void created.push(data.thingId))],
      onError: (_error, message) => void errors.push(message.id),
      filter: (key) => key !== 'ignored',
    });
    await bus.publish([
      eventMessage(ThingCreated, 'k', { thingId: 't1', size: 1 }),
      eventMessage(ThingDeleted, 'k', { thingId: 't1' }),
      eventMessage(ThingCreated, 'ignored', { thingId: 'filtered', size: 1 }),
      { ...eventMessage(ThingCreated, 'k', { thingId: 'bad', size: 1 }, { validate: false, id: 'invalid' }), payload: { type: 'thing.created', version: 1, id: 'invalid', occurredAt: new Date().toISOString(), data: { thingId: '' } } },
      eventMessage(ThingCreated, 'k', { thingId: 't2', size: 2 }),
    ]);
    await waitFor(() => created.includes('t2'));
    await observer.stop();
    expect(created).toEqual(['t1', 't2']);
    expect(errors).toEqual(['invalid']);
    expect(bus.deadLettered!()).toEqual([]);
  });

  it('routes by event type, dead-letters invalid payloads and keeps the rest flowing', async () => {
    const created: { thingId: string; size: number; id: string }[] = [];
    const deleted: string[] = [];
    await subscribeEvents(bus, {
      group: 'things-model',
      retryDelayMs: 10,
      handlers: [
        on(ThingCreated, async (data, { envelope }) => void created.push({ ...data, id: envelope.id })),
        { event: ThingDeleted, handle: async (data) => void deleted.push(data.thingId) },
      ],
    });
    const dead: BusMessage[] = [];
    await bus.subscribe({ group: 'dlq-reader', topics: [deadLetterTopic(TOPIC)], handler: async (m) => void dead.push(m) });

    const firstId = await publishEvent(bus, ThingCreated, 's1', { thingId: 'a', size: 1 });
    // Invalid data that bypassed producer validation (e.g. an older or buggy producer).
    await bus.publish([eventMessage(ThingCreated, 's1', { thingId: '', size: 1 }, { validate: false, id: 'invalid' })]);
    // A version this consumer does not know, of an event it handles.
    await publishEvent(bus, ThingCreatedV2, 's1', { thingId: 'b', sizeCm: 2.5 }, { id: 'future' });
    // Not an envelope at all.
    await bus.publish([{ topic: TOPIC, key: 's1', payload: 'garbage', id: 'garbage', headers: { [EVENT_TYPE_HEADER]: 'thing.created.v1' } }]);
    // Someone else's event on the shared topic: ignored, not dead-lettered.
    await bus.publish([{ topic: TOPIC, key: 's1', payload: { type: 'other.thing', version: 1, id: 'x', occurredAt: 'now', data: 1 }, headers: { [EVENT_TYPE_HEADER]: 'other.thing.v1' } }]);
    await publishEvent(bus, ThingCreated, 's1', { thingId: 'c', size: 3 });
    await publishEvent(bus, ThingDeleted, 's1', { thingId: 'a' });

    await waitFor(() => deleted.length === 1 && dead.length === 3);
    expect(created).toEqual([
      { thingId: 'a', size: 1, id: firstId },
      { thingId: 'c', size: 3, id: expect.any(String) },
    ]);
    expect(deleted).toEqual(['a']);
    const reasons = new Map(dead.map((m) => [m.id, m.headers['x-dead-letter-reason']]));
    expect(reasons.get('invalid')).toMatch(/PoisonMessageError: thing\.created\.v1: \/thingId/);
    expect(reasons.get('future')).toMatch(/unsupported version 2 of thing\.created/);
    expect(reasons.get('garbage')).toMatch(/not an envelope/);
    expect(dead.every((m) => m.headers['x-original-topic'] === TOPIC)).toBe(true);
  });

  it('retries a handler that fails transiently instead of dead-lettering it', async () => {
    let calls = 0;
    await subscribeEvents(bus, {
      group: 'flaky',
      retryDelayMs: 10,
      handlers: [
        on(ThingDeleted, async () => {
          calls++;
          if (calls === 1) throw new Error('database busy');
        }),
      ],
    });
    await publishEvent(bus, ThingDeleted, 's1', { thingId: 'z' });
    await waitFor(() => calls === 2);
  });

  it('onBatch: hands consecutive events of its type together, the others one by one, in order; an invalid event is dead-lettered alone', async () => {
    const seen: string[] = [];
    const batches: string[][] = [];
    // Published before the group starts, so its first read takes them all.
    await bus.publish([
      eventMessage(ThingCreated, 's1', { thingId: 'a', size: 1 }),
      eventMessage(ThingCreated, 's2', { thingId: 'b', size: 1 }),
      eventMessage(ThingDeleted, 's1', { thingId: 'a' }),
      eventMessage(ThingCreated, 's1', { thingId: 'c', size: 1 }),
      eventMessage(ThingCreated, 's1', { thingId: 'd', size: 1 }),
    ]);
    const dead: BusMessage[] = [];
    await bus.subscribe({ group: 'dlq-reader', topics: [deadLetterTopic(TOPIC)], handler: async (m) => void dead.push(m) });
    await subscribeEvents(bus, {
      group: 'things-batched',
      retryDelayMs: 10,
      handlers: [
        onBatch(ThingCreated, async (items) => {
          batches.push(items.map((item) => item.data.thingId));
          for (const item of items) seen.push(`created ${item.data.thingId} ${item.context.message.key}`);
        }),
        on(ThingDeleted, async (data) => void seen.push(`deleted ${data.thingId}`)),
      ],
    });
    await waitFor(() => seen.length === 5);
    expect(seen).toEqual(['created a s1', 'created b s2', 'deleted a', 'created c s1', 'created d s1']);
    expect(batches).toEqual([['a', 'b'], ['c', 'd']]);

    await bus.publish([
      eventMessage(ThingCreated, 's1', { thingId: '', size: 1 }, { validate: false, id: 'invalid' }),
      eventMessage(ThingCreated, 's1', { thingId: 'e', size: 1 }),
    ]);
    await waitFor(() => dead.length === 1 && seen.length === 6);
    expect(dead[0]!.id).toBe('invalid');
    // The batch failed before any handler ran; then each message alone: e as a batch of one.
    expect(batches.slice(2)).toEqual([['e']]);
    expect(seen[5]).toBe('created e s1');
  });

  it('refuses two handlers for the same event type', async () => {
    await expect(
      subscribeEvents(bus, { group: 'g', handlers: [on(ThingDeleted, async () => undefined), on(ThingDeleted, async () => undefined)] }),
    ).rejects.toThrow(/two handlers/);
  });
});
