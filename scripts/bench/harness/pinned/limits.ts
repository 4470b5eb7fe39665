/**
 * The physical limits the pinned benchmark prints beside Skald's figures, each measured on the server
 * CPU in this process of its own, with the same input Skald gets:
 *   - store-insert: the log store's raw insertBatch (SqliteLogStore: the same clustered table, index and
 *     rollups the logs service writes) of the rows the batch body becomes, 1000 per call; only the
 *     insert calls are timed;
 *   - parse: a body's bytes -> fatal UTF-8 decode -> JSON.parse -> ingestion's validation
 *     (parseLogBody) -> accepted logs with their UUIDv7 ids; no I/O;
 *   - sharp: the re-encode ingestion asks of sharp for a photo (same format, EXIF orientation applied,
 *     then the 320 px WebP thumbnail from the stored image), with ingestion's libvips settings
 *     (no cache, one thread), one photo after the other.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { AcceptedLog } from '@skald/contracts';
import type { LogRecord } from '@skald/ports';
import { SqliteLogStore } from '../../../../libs/adapters/src/log-store/sqlite-log-store.ts';
import { toAccepted } from '../../../../services/ingestion/src/domain/accepted-log.ts';
import { parseLogBody } from '../../../../services/ingestion/src/domain/log-input.ts';
import { uuidv7 } from '../../../../services/ingestion/src/domain/uuidv7.ts';
import { serve } from './child-rpc.ts';

const RETENTION_MS = 7 * 86_400_000;
const SERVER_ID = '0195f2c4-0000-7000-8000-000000000001';

export interface Rate {
  /** Units (rows, requests, logs, images) per second of the timed work. */
  readonly perSecond: number;
  readonly units: number;
  readonly seconds: number;
  /** CPU microseconds per unit, where measured. */
  readonly cpuPerUnit?: number;
}

const cpuNow = (): number => {
  const used = process.cpuUsage();
  return used.user + used.system;
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

function accept(bytes: Buffer): AcceptedLog[] {
  const parsed = parseLogBody(JSON.parse(utf8.decode(bytes)));
  const at = Date.now();
  return parsed.logs.map((input) => toAccepted(input, uuidv7(at), at));
}

const dir = await mkdtemp(join(tmpdir(), 'skald-bench-limits-'));
const store = new SqliteLogStore(join(dir, 'logs.db'));

serve({
  /** Inserts the batch body's rows for `seconds` of insert time, fresh ids each call. */
  async 'store-insert'({ body, seconds }: { body: string; seconds: number }): Promise<Rate> {
    const bytes = Buffer.from(body);
    let insertMs = 0;
    let cpuUs = 0;
    let rows = 0;
    while (insertMs < seconds * 1000) {
      const records: LogRecord[] = accept(bytes).map((log) => ({ ...log, serverId: SERVER_ID, expiresAt: log.createdAt + RETENTION_MS }));
      const started = performance.now();
      const cpu = cpuNow();
      rows += (await store.insertBatch(records)).inserted;
      cpuUs += cpuNow() - cpu;
      insertMs += performance.now() - started;
    }
    return { perSecond: rows / (insertMs / 1000), units: rows, seconds: insertMs / 1000, cpuPerUnit: cpuUs / rows };
  },
  /** Parses and validates the body over and over for `seconds`; units = logs. */
  parse({ body, seconds }: { body: string; seconds: number }): Rate & { readonly requestsPerSecond: number } {
    const bytes = Buffer.from(body);
    const started = performance.now();
    let logs = 0;
    let requests = 0;
    while (performance.now() - started < seconds * 1000) {
      for (let i = 0; i < 50; i++) logs += accept(bytes).length;
      requests += 50;
    }
    const elapsed = (performance.now() - started) / 1000;
    return { perSecond: logs / elapsed, requestsPerSecond: requests / elapsed, units: logs, seconds: elapsed };
  },
  /** Re-encodes the image as ingestion does, one after the other, for `seconds`; units = images. */
  async sharp({ image, seconds }: { image: string; seconds: number }): Promise<Rate> {
    sharp.cache(false);
    sharp.concurrency(1);
    const bytes = Buffer.from(image, 'base64');
    const options = { failOn: 'error', animated: false } as const;
    const format = (await sharp(bytes).metadata()).format;
    const started = performance.now();
    let images = 0;
    while (performance.now() - started < seconds * 1000) {
      const pipeline = sharp(bytes, options).rotate();
      const stored = await (format === 'png' ? pipeline.png() : pipeline.jpeg({ quality: 85, optimiseCoding: false })).toBuffer();
      await sharp(stored, options).resize({ width: 320, height: 320, fit: 'inside', withoutEnlargement: true }).webp({ quality: 70 }).toBuffer();
      images += 1;
    }
    const elapsed = (performance.now() - started) / 1000;
    return { perSecond: images / elapsed, units: images, seconds: elapsed };
  },
  async stop() {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  },
});
