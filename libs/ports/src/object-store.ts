/** Object store port: photos, thumbnails, backups. Adapters: local filesystem, MinIO/S3. */
import type { Readable } from 'node:stream';

export interface ObjectInfo {
  readonly key: string;
  readonly size: number;
  readonly contentType: string;
}

export interface StoredObject extends ObjectInfo {
  readonly body: Readable;
}

export interface ObjectStore {
  /** Writes the whole object; visible to get() only once complete (no partial objects). */
  put(key: string, body: Buffer | Readable, contentType: string): Promise<ObjectInfo>;
  get(key: string): Promise<StoredObject | null>;
  stat(key: string): Promise<ObjectInfo | null>;
  /** Deleting a missing key is not an error. */
  delete(keys: readonly string[]): Promise<void>;
  list(prefix: string): Promise<ObjectInfo[]>;
  close(): Promise<void>;
}

/** Keys are server-generated: lowercase letters, digits, `-`, `_`, `.` and `/` separators, no `..`. */
export function assertValidObjectKey(key: string): void {
  if (!/^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/.test(key) || key.includes('..')) {
    throw new Error(`invalid object key: ${JSON.stringify(key)}`);
  }
}
