import type { ObjectStore } from '@skald/ports';
import { FsObjectStore } from './fs-object-store.ts';
import { MinioObjectStore } from './minio-object-store.ts';

export type ObjectStoreConfig =
  | { kind: 'fs'; root: string }
  | { kind: 'minio'; endPoint: string; port: number; useSSL: boolean; accessKey: string; secretKey: string; bucket: string; region?: string };

/** Async: the filesystem store prepares its folders, the MinIO store ensures its bucket. */
export async function createObjectStore(config: ObjectStoreConfig): Promise<ObjectStore> {
  switch (config.kind) {
    case 'fs':
      return FsObjectStore.open(config.root);
    case 'minio':
      return MinioObjectStore.open(config);
  }
}

export { FsObjectStore, MinioObjectStore };
