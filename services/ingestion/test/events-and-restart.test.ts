/**
 * The ingestion service as the all-in-one runs it, with no double at all: identity events arrive over the
 * bus, accepted logs leave as framework events a subscriber validates, and the key read model survives
 * a restart (a new process on the same data folder) without any identity event being redelivered.
 */
import { describe, it, expect } from 'vitest';
import { LogsBatchAcceptedEvent, on, subscribeEvents } from '@skald/contracts';
import type { AcceptedLog } from '@skald/contracts';
import { buildTestService, createTestDeps, waitFor } from '@skald/testing';
import type { TestService } from '@skald/testing';
import { createIngestionService } from '../src/index.ts';

const KEY = 'embedded-key-0123456789abcdef';

const post = (service: TestService, body: unknown) =>
  service.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': KEY }, payload: body as object });

describe('ingestion on the embedded adapters', () => {
  it('accepts logs once the identity events arrive, publishes valid framework events, and keeps keys across a restart', async () => {
    const deps = await createTestDeps({ service: 'ingestion' });
    try {
      const received: AcceptedLog[] = [];
      const consumer = await subscribeEvents(deps.bus, {
        group: 'test-logs-consumer',
        handlers: [on(LogsBatchAcceptedEvent, async (data) => void received.push(...data.logs))],
      });

      const first = await buildTestService(createIngestionService, { deps });
      expect((await post(first, { message: 'too early' })).statusCode).toBe(401);

      await first.identity.server({ serverId: 'srv-e', ownerId: 'u1', tier: 'starter', apiKey: KEY });
      await waitFor(async () => (await post(first, { message: 'hello' })).statusCode === 201, 'the key to work');

      const batch = await post(first, [{ message: 'a', level: 'error' }, { message: 'b', metadata: { k: 1 } }]);
      expect(batch.statusCode).toBe(201);
      const ids = batch.json<{ ids: string[] }>().ids;
      await waitFor(() => ids.every((id) => received.some((log) => log.id === id)), 'the batch to be consumed');
      expect(received.find((log) => log.id === ids[1])).toMatchObject({ message: 'b', metadata: { k: 1 }, level: 'info', logType: 'text' });
      await first.close();

      // Restart: a fresh document store connection on the same file; the directory is loaded from it and
      // the identity consumer group resumes after what it already applied (nothing is redelivered).
      const restarted = await createTestDeps({ service: 'ingestion', shareWith: deps });
      const second = await buildTestService(createIngestionService, { deps: restarted });
      try {
        const again = await post(second, { message: 'after restart' });
        expect(again.statusCode).toBe(201);
      } finally {
        await second.close();
        await restarted.cleanup();
      }
      await consumer.stop();
    } finally {
      await deps.cleanup();
    }
  });
});
