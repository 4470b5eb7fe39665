/**
 * Routing the batches one read of the bus brought (routeBatches): every batch is routed as if alone, and a
 * server's directory entry and webhook filters are read once per read, not once per batch.
 */
import { describe, expect, it } from 'vitest';
import type { AcceptedLog, LogsBatchAccepted } from '@skald/contracts';
import type { ServerView } from '@skald/service-kit';
import { routeBatches } from '../src/domain/route-batch.ts';
import type { RouteBatchDeps } from '../src/domain/route-batch.ts';
import type { WebhookMatcher } from '../src/domain/webhook-store.ts';

const log = (id: string, level: AcceptedLog['level']): AcceptedLog => ({
  id, createdAt: 1, level, type: 'chat', resource: 'core', message: `m ${id}`, metadata: null, logType: 'text', imageKey: null, thumbKey: null,
});
const batch = (serverId: string, ...logs: AcceptedLog[]): LogsBatchAccepted => ({ serverId, logs });
const errorsOnly = (id: string): WebhookMatcher => ({ id, platform: 'discord', enabled: true, eventType: null, logLevel: 'error', resource: null });

function recordingDeps(webhooks: Record<string, WebhookMatcher[]>, suspended: Record<string, boolean> = {}) {
  const filterReads: string[] = [];
  const serverReads: string[] = [];
  const pended: { webhookId: string; logIds: string[] }[] = [];
  const flushes: string[] = [];
  const noted: string[] = [];
  const deps: RouteBatchDeps = {
    directory: {
      server: async (id): Promise<ServerView> => {
        serverReads.push(id);
        return { id, name: id, ownerId: 'u', tier: 'pro', suspended: suspended[id] ?? false };
      },
    },
    store: {
      filtersOf: async (serverId) => {
        filterReads.push(serverId);
        return webhooks[serverId] ?? [];
      },
    },
    seen: { note: async (serverId) => void noted.push(serverId), of: async () => ({ types: [], resources: [] }) },
    pending: { add: async (_id, webhookId, logs) => void pended.push({ webhookId, logIds: logs.map((l) => l.id) }) },
    jobs: {
      add: async (_queue, _name, _data, options) => {
        flushes.push(options?.jobId ?? '');
        return options?.jobId ?? '';
      },
    },
    gatherMs: 1_000,
    now: () => 5_000,
  };
  return { deps, filterReads, serverReads, pended, flushes, noted };
}

describe('routeBatches', () => {
  it('reads each server’s entry and filters once for all of its batches in a read, and routes each batch as if alone', async () => {
    const { deps, filterReads, serverReads, pended, flushes, noted } = recordingDeps({ a: [errorsOnly('wa')], b: [errorsOnly('wb')] });
    const routed = await routeBatches(deps, [
      batch('a', log('a1', 'error'), log('a2', 'info')),
      batch('b', log('b1', 'info')),
      batch('a', log('a3', 'error')),
      batch('b', log('b2', 'error')),
    ]);
    expect(filterReads.sort()).toEqual(['a', 'b']);
    expect(serverReads.sort()).toEqual(['a', 'b']);
    expect(routed).toBe(3);
    expect(pended).toEqual([
      { webhookId: 'wa', logIds: ['a1'] },
      { webhookId: 'wa', logIds: ['a3'] },
      { webhookId: 'wb', logIds: ['b2'] },
    ]);
    expect(flushes).toEqual(['flush.wa.6', 'flush.wa.6', 'flush.wb.6']);
    expect(noted).toEqual(['a', 'b', 'a', 'b']);
  });

  it('reads the filters again on the next read, so a webhook added between reads is served', async () => {
    const webhooks: Record<string, WebhookMatcher[]> = { a: [] };
    const { deps, filterReads, pended } = recordingDeps(webhooks);
    expect(await routeBatches(deps, [batch('a', log('a1', 'error'))])).toBe(0);
    webhooks['a'] = [errorsOnly('wa')];
    expect(await routeBatches(deps, [batch('a', log('a2', 'error'))])).toBe(1);
    expect(filterReads).toEqual(['a', 'a']);
    expect(pended).toEqual([{ webhookId: 'wa', logIds: ['a2'] }]);
  });

  it('routes nothing for a suspended server and does not read its filters, and reads it again on the next read', async () => {
    const suspended: Record<string, boolean> = { a: true };
    const { deps, filterReads, serverReads, pended } = recordingDeps({ a: [errorsOnly('wa')] }, suspended);
    expect(await routeBatches(deps, [batch('a', log('a1', 'error')), batch('a', log('a2', 'error'))])).toBe(0);
    expect(filterReads).toEqual([]);
    suspended['a'] = false;
    expect(await routeBatches(deps, [batch('a', log('a3', 'error'))])).toBe(1);
    expect(serverReads).toEqual(['a', 'a']);
    expect(pended).toEqual([{ webhookId: 'wa', logIds: ['a3'] }]);
  });
});
