import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import pino from 'pino';
import { randomBytes } from 'node:crypto';
import { MemoryCounters } from '@skald/adapters';
import { logsOpenApi } from '../src/index.ts';
import { registerLogsRoutes } from '../src/http/routes.ts';
import { createImageUrlSigner } from '../src/domain/image-url.ts';
import { createLevelColorsRepository } from '../src/domain/level-colors.ts';
import { FakeDirectory } from './support/harness.ts';
import { MemoryLogStore } from './support/memory-log-store.ts';
import { MemoryDocumentStore, MemoryObjectStore } from './support/memory-stores.ts';

describe('logsOpenApi', () => {
  it('describes exactly the routes the service registers, and is plain JSON', async () => {
    const app = Fastify();
    const registered: string[] = [];
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const m of methods) if (m !== 'HEAD') registered.push(`${m.toLowerCase()} ${route.url.replace(/:(\w+)/g, '{$1}')}`);
    });
    await registerLogsRoutes(app, {
      authenticate: async () => null,
      directory: new FakeDirectory(),
      logStore: new MemoryLogStore(),
      objects: new MemoryObjectStore(),
      counters: new MemoryCounters(),
      colors: await createLevelColorsRepository(new MemoryDocumentStore()),
      signer: createImageUrlSigner(randomBytes(32).toString('base64'), '/api'),
      log: pino({ level: 'silent' }),
      now: Date.now,
    });
    await app.ready();
    const documented = Object.entries(logsOpenApi.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
    expect(documented.sort()).toEqual(registered.sort());
    expect(JSON.parse(JSON.stringify(logsOpenApi)).openapi).toBe('3.1.0');
  });
});
