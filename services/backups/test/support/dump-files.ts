/** Reads a stored dump back as the download route serves it (gunzipped) into a file for the `mariadb` client. */
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { ObjectStore } from '@skald/ports';

export async function storedDumpToFile(objects: ObjectStore, key: string, file: string): Promise<void> {
  const stored = await objects.get(key);
  if (!stored) throw new Error(`no object ${key}`);
  await pipeline(stored.body, createGunzip(), createWriteStream(file));
}

/** A resolver that approves every host as its own address (the engine tests; the guard has its own). */
export const loopbackResolver = {
  async resolve(host: string) {
    return { address: host, family: 4 as const };
  },
};
