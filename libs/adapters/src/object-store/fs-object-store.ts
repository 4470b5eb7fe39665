/**
 * Object store on the local filesystem (single host, no MinIO).
 *
 * Layout under root:
 *   objects/  one file per object. Key segment `s` of a folder is stored as folder `s~`
 *             (`~` cannot occur in a key), so keys `a` and `a/b` can coexist like in S3.
 *   tmp/      uploads in progress; renamed into objects/ only when complete, so a reader
 *             never sees a partial object and a failed upload leaves nothing behind.
 * Each object file starts with one JSON header line holding the content type; storing it
 * in the same file keeps bytes and metadata in a single atomic rename.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import type { Dirent } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertValidObjectKey } from '@skald/ports';
import type { ObjectInfo, ObjectStore, StoredObject } from '@skald/ports';
import { assertValidContentType } from './content-type.ts';

const HEADER_MAX_BYTES = 1024;
const FOLDER_SUFFIX = '~';
/** Temp files older than this at startup belong to a crashed process, not a live upload. */
const STALE_TEMP_MS = 60 * 60 * 1000;

export class FsObjectStore implements ObjectStore {
  readonly #objectsDir: string;
  readonly #tmpDir: string;

  private constructor(root: string) {
    this.#objectsDir = join(root, 'objects');
    this.#tmpDir = join(root, 'tmp');
  }

  static async open(root: string): Promise<FsObjectStore> {
    const store = new FsObjectStore(root);
    await mkdir(store.#objectsDir, { recursive: true });
    await mkdir(store.#tmpDir, { recursive: true });
    await store.#removeStaleTemps();
    return store;
  }

  async put(key: string, body: Buffer | Readable, contentType: string): Promise<ObjectInfo> {
    assertValidObjectKey(key);
    assertValidContentType(contentType);
    const tempPath = join(this.#tmpDir, `${randomBytes(12).toString('hex')}.part`);
    const header = Buffer.from(`${JSON.stringify({ contentType })}\n`, 'utf8');
    const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
    let size = 0;
    try {
      await pipeline(
        source,
        async function* prependHeader(chunks: AsyncIterable<Buffer | string>) {
          yield header;
          for await (const chunk of chunks) {
            const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
            size += bytes.length;
            yield bytes;
          }
        },
        // flush: fsync before close, so a crash after rename cannot leave an empty object.
        createWriteStream(tempPath, { flags: 'wx', mode: 0o600, flush: true }),
      );
      const finalPath = this.#pathOf(key);
      await mkdir(dirname(finalPath), { recursive: true });
      await rename(tempPath, finalPath);
    } catch (error) {
      await rm(tempPath, { force: true });
      throw error;
    }
    return { key, size, contentType };
  }

  async get(key: string): Promise<StoredObject | null> {
    assertValidObjectKey(key);
    const handle = await openIfExists(this.#pathOf(key));
    if (!handle) return null;
    try {
      const { contentType, headerBytes, fileSize } = await readHeader(handle, key);
      // Reading through the already-open handle keeps the bytes consistent with the header
      // even if the object is replaced or deleted meanwhile.
      const body = handle.createReadStream({ start: headerBytes, autoClose: true });
      return { key, size: fileSize - headerBytes, contentType, body };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    assertValidObjectKey(key);
    return this.#statPath(key, this.#pathOf(key));
  }

  async delete(keys: readonly string[]): Promise<void> {
    keys.forEach(assertValidObjectKey);
    await Promise.all(keys.map((key) => rm(this.#pathOf(key), { force: true })));
  }

  async list(prefix: string): Promise<ObjectInfo[]> {
    const keys: { key: string; path: string }[] = [];
    await this.#walk(this.#objectsDir, '', prefix, keys);
    const infos = await Promise.all(keys.map(({ key, path }) => this.#statPath(key, path)));
    return infos.filter((info): info is ObjectInfo => info !== null).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async close(): Promise<void> {}

  #pathOf(key: string): string {
    const segments = key.split('/');
    const last = segments.pop()!;
    return join(this.#objectsDir, ...segments.map((segment) => segment + FOLDER_SUFFIX), last);
  }

  async #statPath(key: string, path: string): Promise<ObjectInfo | null> {
    const handle = await openIfExists(path);
    if (!handle) return null;
    try {
      const { contentType, headerBytes, fileSize } = await readHeader(handle, key);
      return { key, size: fileSize - headerBytes, contentType };
    } finally {
      await handle.close();
    }
  }

  async #walk(dir: string, keyPrefix: string, wanted: string, out: { key: string; path: string }[]): Promise<void> {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (isCode(error, 'ENOENT')) return;
      throw error;
    }
    for (const entry of entries) {
      if (entry.isDirectory() && entry.name.endsWith(FOLDER_SUFFIX)) {
        const folderKey = `${keyPrefix}${entry.name.slice(0, -FOLDER_SUFFIX.length)}/`;
        // Descend only where keys could still start with the wanted prefix.
        if (folderKey.startsWith(wanted) || wanted.startsWith(folderKey)) {
          await this.#walk(join(dir, entry.name), folderKey, wanted, out);
        }
      } else if (entry.isFile()) {
        const key = keyPrefix + entry.name;
        if (key.startsWith(wanted)) out.push({ key, path: join(dir, entry.name) });
      }
    }
  }

  async #removeStaleTemps(): Promise<void> {
    const now = Date.now();
    for (const name of await readdir(this.#tmpDir)) {
      const path = join(this.#tmpDir, name);
      const info = await stat(path).catch(() => null);
      if (info && now - info.mtimeMs > STALE_TEMP_MS) await rm(path, { force: true });
    }
  }
}

async function openIfExists(path: string): Promise<FileHandle | null> {
  try {
    return await open(path, 'r');
  } catch (error) {
    if (isCode(error, 'ENOENT') || isCode(error, 'EISDIR') || isCode(error, 'ENOTDIR')) return null;
    throw error;
  }
}

async function readHeader(handle: FileHandle, key: string): Promise<{ contentType: string; headerBytes: number; fileSize: number }> {
  const { size: fileSize } = await handle.stat();
  const buffer = Buffer.alloc(Math.min(HEADER_MAX_BYTES, fileSize));
  const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
  const newline = buffer.subarray(0, bytesRead).indexOf(0x0a);
  if (newline < 0) throw new Error(`object ${key} has no header`);
  const parsed: unknown = JSON.parse(buffer.subarray(0, newline).toString('utf8'));
  if (typeof parsed !== 'object' || parsed === null || typeof (parsed as { contentType?: unknown }).contentType !== 'string') {
    throw new Error(`object ${key} has a malformed header`);
  }
  return { contentType: (parsed as { contentType: string }).contentType, headerBytes: newline + 1, fileSize };
}

function isCode(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}
