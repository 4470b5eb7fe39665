/**
 * The coalescing publisher merges the logs of concurrent requests per server into few valid
 * `logs.batch-accepted` messages, keeps each server's arrival order, never exceeds the event schema's
 * batch cap, and answers each caller only with the outcome of the call that carried its logs.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { explainLogsBatchAccepted, LOG_LIMITS } from '@skald/contracts';
import type { AcceptedLog } from '@skald/contracts';
import type { PublishInput } from '@skald/ports';
import { createTestDeps } from '@skald/testing';
import type { TestDeps } from '@skald/testing';
import { CoalescingPublisher } from '../src/domain/coalescing-publisher.ts';
import { RecordingBus } from './support/doubles.ts';

function logs(prefix: string, count: number): AcceptedLog[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `${prefix}-${i}`,
    createdAt: 1_700_000_000_000,
    level: 'info',
    type: 'General',
    resource: 'unknown',
    message: `${prefix} message ${i}`,
    metadata: null,
    logType: 'text',
    imageKey: null,
    thumbKey: null,
  }));
}

function data(message: PublishInput): { serverId: string; logs: AcceptedLog[] } {
  return (message.payload as { data: { serverId: string; logs: AcceptedLog[] } }).data;
}

describe('CoalescingPublisher', () => {
  // The real embedded bus (SQLite journal), recorded: each test gets a fresh one.
  let deps: TestDeps;
  let bus: RecordingBus;
  beforeEach(async () => {
    deps = await createTestDeps();
    bus = new RecordingBus(deps.bus);
  });
  afterEach(async () => {
    await deps.cleanup();
  });

  it('merges concurrent requests of one server into one message, in arrival order', async () => {
    const publisher = new CoalescingPublisher(bus);
    await Promise.all([publisher.publish('s1', logs('a', 1), 1), publisher.publish('s2', logs('x', 2), 1), publisher.publish('s1', logs('b', 2), 1)]);
    expect(bus.publishCalls).toBe(1);
    expect(bus.published).toHaveLength(2);
    const byServer = new Map(bus.published.map((m) => [m.key, data(m).logs.map((l) => l.id)]));
    expect(byServer.get('s1')).toEqual(['a-0', 'b-0', 'b-1']);
    expect(byServer.get('s2')).toEqual(['x-0', 'x-1']);
    for (const message of bus.published) expect(explainLogsBatchAccepted(data(message))).toBeNull();
  });

  it('splits a merged group at the schema batch cap so every message stays valid', async () => {
    const publisher = new CoalescingPublisher(bus);
    const requests = Array.from({ length: 3 }, (_, i) => publisher.publish('s1', logs(`r${i}`, LOG_LIMITS.maxBatch), 1));
    await Promise.all(requests);
    const sizes = bus.published.map((m) => data(m).logs.length);
    expect(sizes.every((n) => n <= LOG_LIMITS.maxBatch)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(3 * LOG_LIMITS.maxBatch);
    for (const message of bus.published) expect(explainLogsBatchAccepted(data(message))).toBeNull();
    expect(bus.published.flatMap((m) => data(m).logs.map((l) => l.id))[LOG_LIMITS.maxBatch]).toBe('r1-0');
  });

  it('rejects every caller of a failed call and publishes nothing for them', async () => {
    bus.failPublish = true;
    const publisher = new CoalescingPublisher(bus);
    const outcomes = await Promise.allSettled([publisher.publish('s1', logs('a', 1), 1), publisher.publish('s1', logs('b', 1), 1)]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(bus.published).toHaveLength(0);
    bus.failPublish = false;
    await publisher.publish('s1', logs('c', 1), 1);
    expect(bus.published.flatMap((m) => data(m).logs.map((l) => l.id))).toEqual(['c-0']);
  });

  it('keeps a call under the log bound by starting a new call, never splitting a caller', async () => {
    const publisher = new CoalescingPublisher(bus, 3);
    await Promise.all([publisher.publish('s1', logs('a', 2), 1), publisher.publish('s1', logs('b', 2), 1), publisher.publish('s1', logs('c', 5), 1)]);
    expect(bus.publishCalls).toBe(3);
    expect(bus.published.map((m) => data(m).logs.map((l) => l.id).join(','))).toEqual(['a-0,a-1', 'b-0,b-1', 'c-0,c-1,c-2,c-3,c-4']);
  });
});
