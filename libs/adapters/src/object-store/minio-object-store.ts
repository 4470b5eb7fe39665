/**
 * Object store on MinIO / S3 through the `minio` 8 client.
 *
 * Uploads never buffer a whole object: a stream is cut into parts of PART_SIZE bytes.
 * Bodies that fit in one part go up in one PUT; larger ones use a multipart upload that
 * is completed only after the source ends cleanly and aborted on any error, so S3 never
 * exposes a partial object. (The client's own putObject cannot be used for streams of
 * unknown length: it picks a ~500 MiB part and buffers it, and it ignores source errors.)
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { Client } from 'minio';
import { assertValidObjectKey } from '@skald/ports';
import type { ObjectInfo, ObjectStore, StoredObject } from '@skald/ports';
import type { S3Settings } from '@skald/config';
import { assertValidContentType } from './content-type.ts';

/** S3's minimum part size; also the most memory one upload holds at a time. */
const PART_SIZE = 5 * 1024 * 1024;
const DELETE_BATCH = 1000;
const STAT_CONCURRENCY = 8;

/** The S3 settings the configuration reads (S3_ENDPOINT and the rest): the store opens with exactly those. */
export type MinioObjectStoreOptions = S3Settings;

export class MinioObjectStore implements ObjectStore {
  readonly #client: Client;
  readonly #bucket: string;
  readonly #agent: HttpAgent;

  private constructor(client: Client, bucket: string, agent: HttpAgent) {
    this.#client = client;
    this.#bucket = bucket;
    this.#agent = agent;
  }

  static async open(options: MinioObjectStoreOptions): Promise<MinioObjectStore> {
    const region = options.region ?? 'us-east-1';
    // An own keep-alive agent with few idle sockets: an idle socket can keep its last request
    // (a whole 5 MiB part) reachable, and close() must be able to drop the connections.
    const agentOptions = { keepAlive: true, maxFreeSockets: 2 };
    const agent = options.useSSL ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
    const client = new Client({
      endPoint: options.endPoint,
      port: options.port,
      useSSL: options.useSSL,
      accessKey: options.accessKey,
      secretKey: options.secretKey,
      region,
      pathStyle: true,
      partSize: PART_SIZE,
      transportAgent: agent,
    });
    try {
      await ensureBucket(client, options.bucket, region);
    } catch (error) {
      agent.destroy();
      throw error;
    }
    return new MinioObjectStore(client, options.bucket, agent);
  }

  async put(key: string, body: Buffer | Readable, contentType: string): Promise<ObjectInfo> {
    assertValidObjectKey(key);
    assertValidContentType(contentType);
    const headers = { 'Content-Type': contentType };
    if (Buffer.isBuffer(body) && body.length <= PART_SIZE) {
      await this.#client.putObject(this.#bucket, key, body, body.length, headers);
      return { key, size: body.length, contentType };
    }
    const parts = partsOf(Buffer.isBuffer(body) ? [body] : body);
    const start = await firstPartOf(parts);
    if ('whole' in start) {
      await this.#client.putObject(this.#bucket, key, start.whole, start.whole.length, headers);
      return { key, size: start.whole.length, contentType };
    }
    // The holder is emptied by the upload, so this suspended frame does not keep the part alive.
    return this.#multipartUpload(key, headers, start.holder, parts);
  }

  async #multipartUpload(
    key: string,
    headers: Record<string, string>,
    firstHolder: { part?: Buffer },
    rest: AsyncGenerator<Part>,
  ): Promise<ObjectInfo> {
    const uploadId = await this.#client.initiateNewMultipartUpload(this.#bucket, key, headers);
    const etags: { part: number; etag: string }[] = [];
    let size = 0;
    try {
      const upload = async (part: Buffer): Promise<void> => {
        const partNumber = etags.length + 1;
        const response = await this.#client.makeRequestAsyncOmit(
          {
            method: 'PUT',
            bucketName: this.#bucket,
            objectName: key,
            query: `partNumber=${partNumber}&uploadId=${encodeURIComponent(uploadId)}`,
            headers: { 'Content-Length': String(part.length), 'Content-MD5': createHash('md5').update(part).digest('base64') },
          },
          part,
        );
        const etag = String(response.headers.etag ?? '').replace(/^"|"$/g, '');
        etags.push({ part: partNumber, etag });
        size += part.length;
      };
      // No local bindings for parts: a suspended frame would keep the previous part alive.
      await upload(takePart(firstHolder));
      for await (const { bytes } of rest) await upload(bytes);
      await this.#client.completeMultipartUpload(this.#bucket, key, uploadId, etags);
    } catch (error) {
      // Best effort: a server without abort support still never shows the uncompleted object.
      await this.#client.abortMultipartUpload(this.#bucket, key, uploadId).catch(() => undefined);
      throw error;
    }
    return { key, size, contentType: headers['Content-Type']! };
  }

  async get(key: string): Promise<StoredObject | null> {
    assertValidObjectKey(key);
    let body: Readable;
    try {
      body = await this.#client.getObject(this.#bucket, key);
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
    // The client returns the HTTP response itself; its headers describe exactly these bytes.
    const headers = (body as Partial<IncomingMessage>).headers;
    if (headers?.['content-length'] !== undefined) {
      return { key, size: Number(headers['content-length']), contentType: headers['content-type'] ?? 'application/octet-stream', body };
    }
    const info = await this.stat(key);
    if (!info) {
      body.destroy();
      return null;
    }
    return { ...info, body };
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    assertValidObjectKey(key);
    try {
      const info = await this.#client.statObject(this.#bucket, key);
      const metaData = info.metaData as Record<string, string | undefined>;
      return { key, size: info.size, contentType: metaData['content-type'] ?? 'application/octet-stream' };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(keys: readonly string[]): Promise<void> {
    keys.forEach(assertValidObjectKey);
    for (let start = 0; start < keys.length; start += DELETE_BATCH) {
      const batch = keys.slice(start, start + DELETE_BATCH);
      const results = await this.#client.removeObjects(this.#bucket, batch);
      const failed = results.filter((result) => result != null && ('Error' in result || 'errors' in result));
      if (failed.length > 0) throw new Error(`failed to delete ${failed.length} object(s): ${JSON.stringify(failed).slice(0, 500)}`);
    }
  }

  async list(prefix: string): Promise<ObjectInfo[]> {
    const names: string[] = [];
    for await (const item of this.#client.listObjectsV2(this.#bucket, prefix, true)) {
      if (item.name) names.push(item.name);
    }
    // Listings carry no content type, so each object is stat'ed (bounded concurrency).
    const infos: (ObjectInfo | null)[] = new Array<ObjectInfo | null>(names.length).fill(null);
    let next = 0;
    const workers = Array.from({ length: Math.min(STAT_CONCURRENCY, names.length) }, async () => {
      while (next < names.length) {
        const index = next++;
        infos[index] = await this.stat(names[index]!);
      }
    });
    await Promise.all(workers);
    return infos.filter((info): info is ObjectInfo => info !== null).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async close(): Promise<void> {
    this.#agent.destroy();
  }
}

async function ensureBucket(client: Client, bucket: string, region: string): Promise<void> {
  if (await client.bucketExists(bucket)) return;
  try {
    await client.makeBucket(bucket, region);
  } catch (error) {
    // Another instance created it between the check and the create.
    const code = (error as { code?: string }).code;
    if (code !== 'BucketAlreadyOwnedByYou' && code !== 'BucketAlreadyExists') throw error;
  }
}

interface Part {
  readonly bytes: Buffer;
  /** True when the source ended right after this part. */
  readonly last: boolean;
}

/**
 * Re-chunks a byte stream into PART_SIZE parts (only the last may be shorter). A full part
 * is released only once a further byte has arrived, so `last` is known without holding
 * a second part in memory.
 */
async function* partsOf(source: AsyncIterable<Buffer | string> | Iterable<Buffer>): AsyncGenerator<Part> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const flush = (): Buffer => {
    const part = Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    return part;
  };
  for await (const chunk of source) {
    let bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    while (pendingBytes + bytes.length > PART_SIZE) {
      const take = PART_SIZE - pendingBytes;
      pending.push(bytes.subarray(0, take));
      pendingBytes = PART_SIZE;
      bytes = bytes.subarray(take);
      // Yielded without a named binding so this frame drops the part while reading the next.
      yield { bytes: flush(), last: false };
    }
    if (bytes.length > 0) {
      pending.push(bytes);
      pendingBytes += bytes.length;
    }
  }
  if (pendingBytes > 0) yield { bytes: flush(), last: true };
}

/** Either the whole (single-part) body, or the first of several parts in a clearable holder. */
async function firstPartOf(parts: AsyncGenerator<Part>): Promise<{ whole: Buffer } | { holder: { part?: Buffer } }> {
  const first = await parts.next();
  if (first.done) return { whole: Buffer.alloc(0) };
  if (first.value.last) return { whole: first.value.bytes };
  return { holder: { part: first.value.bytes } };
}

function takePart(holder: { part?: Buffer }): Buffer {
  const part = holder.part!;
  delete holder.part;
  return part;
}

function isNotFound(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === 'NoSuchKey' || code === 'NotFound' || code === 'NoSuchObject';
}
