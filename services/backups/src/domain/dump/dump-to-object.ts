/**
 * One backup run's data path: resolve the host through the outbound guard (the service kit's, shared with
 * webhooks), connect to exactly the address it approved (no second lookup: no DNS rebinding), stream the dump through gzip into the object store. Guarded by a connect timeout, a stall
 * timeout (the source sends nothing while we wait for it), a total duration and a size limit. Any failure
 * destroys the connection and the upload, so the object store keeps no partial file (its put publishes an
 * object only once complete), and is answered as a DumpFailure carrying the owner-facing reason.
 */
import { createGzip, constants as zlibConstants } from 'node:zlib';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Connection } from 'mysql2';
import type { ObjectStore } from '@skald/ports';
import { OutboundFailed, OutboundRefused } from '@skald/service-kit';
import type { OutboundGuard } from '@skald/service-kit';
import { dumpDatabase } from './dump-database.ts';
import type { DumpProgress } from './dump-database.ts';
import { DumpFailure, failureReason } from './failure.ts';
import { closeSource, openSource } from './source.ts';

export interface DumpLimits {
  readonly connectTimeoutMs: number;
  /** The source sent nothing for this long while the dump waited on it. */
  readonly stallTimeoutMs: number;
  readonly maxDurationMs: number;
  /** Uncompressed SQL bytes. */
  readonly maxBytes: number;
  /** gzip level: 1 is fast enough to keep up with the source (docs/BACKUPS.md). */
  readonly gzipLevel: number;
}

export const DEFAULT_DUMP_LIMITS: DumpLimits = {
  connectTimeoutMs: 10_000,
  stallTimeoutMs: 60_000,
  maxDurationMs: 2 * 60 * 60_000,
  maxBytes: 20 * 1024 ** 3,
  gzipLevel: 1,
};

export interface DumpSource {
  /** As the owner entered it. */
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  readonly database: string;
}

export interface DumpResult {
  /** Bytes of SQL (the downloaded file). */
  readonly size: number;
  /** Bytes stored (compressed). */
  readonly storedSize: number;
}

function durationText(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}

function sizeText(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${Math.round((bytes / 1024 ** 3) * 10) / 10} GB`;
  if (bytes >= 1024 ** 2) return `${Math.round((bytes / 1024 ** 2) * 10) / 10} MB`;
  return `${Math.ceil(bytes / 1024)} KB`;
}

export async function dumpToObject(
  deps: { readonly objects: ObjectStore; readonly outbound: OutboundGuard },
  source: DumpSource,
  key: string,
  limits: DumpLimits,
  options: { readonly now?: () => number; readonly signal?: AbortSignal; readonly interruptedReason?: string } = {},
): Promise<DumpResult> {
  const now = options.now ?? Date.now;
  const context = { host: source.host, port: source.port };
  let address: string;
  try {
    ({ address } = await deps.outbound.resolve(source.host));
  } catch (error) {
    // The guard's messages name the host only and are written for the owner.
    if (error instanceof OutboundRefused || error instanceof OutboundFailed) throw new DumpFailure(error.message);
    throw new DumpFailure(failureReason(error, context));
  }

  let connection: Connection | null = null;
  let abortReason: Error | null = null;
  const progress: DumpProgress = { waiting: false, ticks: 0, bytes: 0 };
  const abort = (reason: Error) => {
    abortReason ??= reason;
    if (connection) closeSource(connection, reason);
  };
  const deadline = setTimeout(() => abort(new DumpFailure(`The backup took longer than ${Math.round(limits.maxDurationMs / 60_000)} minutes`)), limits.maxDurationMs);
  const onAbort = () => abort(new DumpFailure(options.interruptedReason ?? 'The backup was interrupted'));
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let lastTicks = -1;
  let stillSince = now();
  const watchdog = setInterval(() => {
    if (!progress.waiting || progress.ticks !== lastTicks) {
      lastTicks = progress.ticks;
      stillSince = now();
    } else if (now() - stillSince >= limits.stallTimeoutMs) {
      abort(new DumpFailure(`The database stopped answering (nothing for ${durationText(limits.stallTimeoutMs)})`));
    }
  }, Math.max(10, Math.min(1000, Math.floor(limits.stallTimeoutMs / 4))));

  try {
    connection = await openSource({ ...source, address }, limits.connectTimeoutMs);
    if (abortReason) throw abortReason;
    const sql = Readable.from(
      dumpDatabase(connection, source.database, {
        progress,
        maxBytes: limits.maxBytes,
        onTooLarge: () => new DumpFailure(`The backup is larger than the limit of ${sizeText(limits.maxBytes)}`),
        now,
      }),
      { objectMode: false, highWaterMark: 1024 * 1024 },
    );
    // 256 KiB output chunks: a sixteenth of the default's writes and stream turns on the way to the store.
    const gzip = createGzip({ level: limits.gzipLevel, memLevel: 8, strategy: zlibConstants.Z_DEFAULT_STRATEGY, chunkSize: 256 * 1024 });
    const compressing = pipeline(sql, gzip);
    const [compressed, stored] = await Promise.allSettled([compressing, deps.objects.put(key, gzip, 'application/gzip')]);
    if (compressed.status === 'rejected') throw compressed.reason;
    if (stored.status === 'rejected') throw stored.reason;
    return { size: progress.bytes, storedSize: stored.value.size };
  } catch (error) {
    // The object store removed its temporary file; make sure nothing was published under the key either.
    await deps.objects.delete([key]).catch(() => undefined);
    throw new DumpFailure(failureReason(abortReason ?? error, context));
  } finally {
    clearTimeout(deadline);
    clearInterval(watchdog);
    options.signal?.removeEventListener('abort', onAbort);
    if (connection) closeSource(connection);
  }
}
