/** Reads a stored dump back as the download route serves it (gunzipped) into a file for the `mariadb` client. */
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { ObjectStore } from '@skald/ports';
import { createOutboundGuard } from '@skald/service-kit';

export async function storedDumpToFile(objects: ObjectStore, key: string, file: string): Promise<void> {
  const stored = await objects.get(key);
  if (!stored) throw new Error(`no object ${key}`);
  await pipeline(stored.body, createGunzip(), createWriteStream(file));
}

/** The service kit's guard allowing the local MariaDB (the test kit's default allows nothing private). */
export const loopbackResolver = createOutboundGuard({ allowed: ['127.0.0.1'] });
