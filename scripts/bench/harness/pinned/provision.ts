/**
 * The one way a benchmark's all-in-one gets a tenant (skald-server.ts, retention-server.ts): a user registered
 * and logged in, a server created through the API, moved to the legend tier (the largest quota, which
 * unlimited-quota.ts keeps from ever running out), and its key; answered once ingestion's read model applied the
 * tier, so the first measured request is not refused at the free tier's limit.
 */
import { publishEvent, quotaKey, quotaWindowStart, ServerTierChangedEvent } from '@skald/contracts';
import type { Counters, EventBus } from '@skald/ports';
import type { FastifyInstance } from 'fastify';

export interface BenchTenant {
  readonly serverId: string;
  readonly apiKey: string;
}

/** `bus` and `counters`: the ingestion service's (its read model reads the tier from that bus). */
export async function provisionLegendServer(app: FastifyInstance, bus: EventBus, counters: Counters): Promise<BenchTenant> {
  const password = 'correct horse battery staple 42';
  await app.inject({ method: 'POST', url: '/api/auth/register', payload: { username: 'bench', password, email: 'bench@example.com' } });
  const token = (await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'bench', password } })).json<{ token: string }>().token;
  const created = await app.inject({ method: 'POST', url: '/api/server/servers', headers: { authorization: `Bearer ${token}` }, payload: { name: 'Bench' } });
  const { id: serverId, api_key: apiKey } = created.json<{ id: string; api_key: string }>();
  await publishEvent(bus, ServerTierChangedEvent, serverId, { serverId, tier: 'legend' });
  const resetQuota = () => counters.reset(quotaKey(serverId, quotaWindowStart(Date.now())));
  // Until the ingestion read model applied the tier: two full batches pass only above the free tier.
  const probe = Array.from({ length: 1000 }, () => ({ message: 'probe' }));
  const headers = { 'x-api-key': apiKey };
  for (let i = 0; i < 200; i++) {
    await resetQuota();
    const a = await app.inject({ method: 'POST', url: '/api/logs', headers, payload: probe });
    const b = await app.inject({ method: 'POST', url: '/api/logs', headers, payload: probe });
    if (a.statusCode === 201 && b.statusCode === 201) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await resetQuota();
  return { serverId, apiKey };
}
