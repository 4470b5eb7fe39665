import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentStoreContract } from '@skald/ports/contract/document-store.contract.ts';
import { createDocumentStore } from '../src/document-store/index.ts';

documentStoreContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'skald-docs-'));
  const adapter = await createDocumentStore({ kind: 'sqlite', file: join(dir, 'nested', 'documents.db') });
  return {
    adapter,
    cleanup: async () => {
      await adapter.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('SQLite document store specifics', () => {
  it('keeps documents across a reopen of the file (WAL durability)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-docs-'));
    try {
      const file = join(dir, 'documents.db');
      const first = await createDocumentStore({ kind: 'sqlite', file });
      const users = await first.collection<{ _id: string; email: string }>('users', [{ fields: ['email'], unique: true }]);
      await users.insertOne({ _id: 'u1', email: 'a@example.com' });
      await first.close();
      const second = await createDocumentStore({ kind: 'sqlite', file });
      const again = await second.collection<{ _id: string; email: string }>('users', [{ fields: ['email'], unique: true }]);
      expect(await again.findOne({ email: 'a@example.com' })).toEqual({ _id: 'u1', email: 'a@example.com' });
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serves equality on an indexed field through the expression index', async () => {
    const { DatabaseSync } = await import('node:sqlite');
    const dir = mkdtempSync(join(tmpdir(), 'skald-docs-'));
    try {
      const file = join(dir, 'documents.db');
      const store = await createDocumentStore({ kind: 'sqlite', file });
      await store.collection('servers', [{ fields: ['ownerId'] }]);
      await store.close();
      const db = new DatabaseSync(file);
      const plan = db
        .prepare(`EXPLAIN QUERY PLAN SELECT doc FROM "c_servers" WHERE (json_extract(doc, '$.ownerId') = ? AND json_type(doc, '$.ownerId') = 'text')`)
        .all('u1')
        .map((row) => String(row['detail']));
      db.close();
      expect(plan.join('\n')).toContain('USING INDEX');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
