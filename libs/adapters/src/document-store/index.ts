/**
 * Document store factory: SQLite (embedded, one file per service) or MongoDB (one database per service).
 * The query subset both accept is documented in docs/DOCUMENT_STORE.md.
 * The MongoDB driver is imported only when chosen, so the embedded processes never load it (idle memory).
 */
import type { DocumentStore } from '@skald/ports';
import { SqliteDocumentStore } from './sqlite-document-store.ts';

export type DocumentStoreConfig = { kind: 'sqlite'; file: string } | { kind: 'mongo'; url: string; database: string };

export async function createDocumentStore(config: DocumentStoreConfig): Promise<DocumentStore> {
  switch (config.kind) {
    case 'sqlite':
      return new SqliteDocumentStore(config.file);
    case 'mongo': {
      const { MongoDocumentStore } = await import('./mongo-document-store.ts');
      return new MongoDocumentStore(config.url, config.database);
    }
  }
}

export { SqliteDocumentStore } from './sqlite-document-store.ts';
// Type only: a value re-export would load the MongoDB driver for every importer of @skald/adapters.
export type { MongoDocumentStore } from './mongo-document-store.ts';
export { validateFilter, validateUpdate } from './query-validation.ts';
