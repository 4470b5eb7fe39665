/** Object store factory. The MinIO client is imported only when chosen, so the fs processes never load it. */
import type { ObjectStore } from '@skald/ports';
import type { S3Settings } from '@skald/config';
import { FsObjectStore } from './fs-object-store.ts';

export type ObjectStoreConfig =
  | { kind: 'fs'; root: string }
  | ({ kind: 'minio' } & S3Settings);

/** Async: the filesystem store prepares its folders, the MinIO store ensures its bucket. */
export async function createObjectStore(config: ObjectStoreConfig): Promise<ObjectStore> {
  switch (config.kind) {
    case 'fs':
      return FsObjectStore.open(config.root);
    case 'minio': {
      const { MinioObjectStore } = await import('./minio-object-store.ts');
      return MinioObjectStore.open(config);
    }
  }
}

export { FsObjectStore };
// Type only: a value re-export would load the MinIO client for every importer of @skald/adapters.
export type { MinioObjectStore } from './minio-object-store.ts';
