/** The identity read model on the real embedded adapters (SQLite documents, SQLite bus journal). */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDocumentStore, createEventBus } from '@skald/adapters';
import { identityReadModelSuite } from '@skald/service-kit/contract/identity-read-model.contract.ts';

identityReadModelSuite('embedded adapters', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'skald-irm-'));
  const bus = await createEventBus({ kind: 'memory', file: join(dir, 'bus.db') });
  const docs = await createDocumentStore({ kind: 'sqlite', file: join(dir, 'docs.db') });
  return { bus, docs, cleanup: () => rm(dir, { recursive: true, force: true }) };
});
