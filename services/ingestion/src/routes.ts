/**
 * The public ingestion API (spec 001 §3, §7): POST /logs and POST /photologs, authenticated by the
 * server's API key (X-API-Key, Authorization: Bearer, or the deprecated ?apiKey=).
 *
 * Order of checks, each answering before any work the next step would cost:
 *   key (401) -> suspension (403) -> whole body valid (400/413/415) -> quota per log (429) -> durable
 *   publish (503 if the bus refuses) -> 201 with the generated id(s).
 * Nothing from a refused request is published or stored.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import type { AcceptedLog } from '@skald/contracts';
import type { Counters, ObjectStore } from '@skald/ports';
import { presentedKey } from './api-key.ts';
import type { PresentedKey } from './api-key.ts';
import type { CoalescingPublisher } from './coalescing-publisher.ts';
import type { KeyDirectory, KeyOwner } from './key-directory.ts';
import { InvalidFieldError, parseLogBody, parsePhotoFields } from './log-input.ts';
import type { LogInput } from './log-input.ts';
import { ImageTooLargeError, MAX_PHOTO_BYTES, processPhoto, UnsupportedImageError } from './photo.ts';
import { consumeQuota } from './quota.ts';
import { uuidv7 } from './uuidv7.ts';

export interface IngestionRouteDeps {
  readonly directory: KeyDirectory;
  readonly counters: Counters;
  readonly objects: ObjectStore;
  readonly publisher: CoalescingPublisher;
  readonly now?: () => number;
}

/** JSON body limit of POST /logs: a batch of 1000 typical logs fits with a wide margin. */
export const LOGS_BODY_LIMIT = 5 * 1024 * 1024;
const RETRY_AFTER_UNAVAILABLE_S = 5;

function send(reply: FastifyReply, status: number, error: string, extra: Record<string, unknown> = {}): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ error, message: error, ...extra });
}

/** Headers on every ingestion answer: nothing cached, no Referer leak of a query key. */
function baseHeaders(reply: FastifyReply, key: PresentedKey | null): void {
  reply.header('cache-control', 'no-store');
  reply.header('referrer-policy', 'no-referrer');
  if (key?.source === 'query') {
    reply.header('deprecation', 'true');
    reply.header('warning', '299 - "apiKey in the query string is deprecated; send the X-API-Key header"');
  }
}

type Authorized = { readonly ok: true; readonly key: PresentedKey; readonly owner: KeyOwner } | { readonly ok: false };

function authorize(request: FastifyRequest, reply: FastifyReply, directory: KeyDirectory): Authorized {
  const key = presentedKey(request.headers, request.query);
  baseHeaders(reply, key);
  const owner = key === null ? null : directory.lookup(key.hash);
  if (key === null || owner === null) {
    // Same answer for a missing, malformed, rotated or unknown key: nothing to learn by probing.
    send(reply, 401, 'Invalid API key');
    return { ok: false };
  }
  if (owner.suspended) {
    send(reply, 403, 'This server is suspended');
    return { ok: false };
  }
  return { ok: true, key, owner };
}

/** Object keys must be lowercase `[a-z0-9._-]`; server ids that are not get a stable hashed form. */
function keySegment(serverId: string): string {
  return /^[a-z0-9][a-z0-9_-]{0,63}$/.test(serverId) ? serverId : createHash('sha256').update(serverId).digest('hex').slice(0, 32);
}

function toAccepted(input: LogInput, id: string, createdAt: number, photo?: { imageKey: string; thumbKey: string }): AcceptedLog {
  return {
    id,
    createdAt,
    level: input.level,
    type: input.type,
    resource: input.resource,
    message: input.message,
    metadata: input.metadata,
    logType: photo ? 'photo' : 'text',
    imageKey: photo?.imageKey ?? null,
    thumbKey: photo?.thumbKey ?? null,
  };
}

/** Consumes quota for `count` logs; answers 429/503 itself and returns false when the request must stop. */
async function admitQuota(deps: IngestionRouteDeps, reply: FastifyReply, owner: KeyOwner, count: number, now: number, request: FastifyRequest): Promise<boolean> {
  try {
    const decision = await consumeQuota(deps.counters, owner.serverId, owner.tier, count, now);
    if (decision.allowed) return true;
    reply.header('retry-after', String(decision.retryAfterSeconds));
    send(reply, 429, `Log limit reached: ${owner.tier.label} allows ${owner.tier.limit} logs per hour`, { usage: decision.usage });
    return false;
  } catch (error) {
    // Fail closed: without the shared counter we cannot enforce the tier, so refuse and ask for a retry.
    request.log.error({ err: error }, 'quota counter unavailable');
    reply.header('retry-after', String(RETRY_AFTER_UNAVAILABLE_S));
    send(reply, 503, 'Service Unavailable');
    return false;
  }
}

export async function registerIngestionRoutes(app: FastifyInstance, deps: IngestionRouteDeps): Promise<void> {
  const now = deps.now ?? Date.now;

  app.post('/logs', { bodyLimit: LOGS_BODY_LIMIT }, async (request, reply) => {
    const auth = authorize(request, reply, deps.directory);
    if (!auth.ok) return reply;
    let parsed: ReturnType<typeof parseLogBody>;
    try {
      parsed = parseLogBody(request.body);
    } catch (error) {
      if (error instanceof InvalidFieldError) return send(reply, 400, error.message, { field: error.field });
      throw error;
    }
    const at = now();
    if (!(await admitQuota(deps, reply, auth.owner, parsed.logs.length, at, request))) return reply;
    const accepted = parsed.logs.map((input) => toAccepted(input, uuidv7(at), at));
    try {
      await deps.publisher.publish(auth.owner.serverId, accepted, at);
    } catch (error) {
      request.log.error({ err: error }, 'publishing accepted logs failed');
      reply.header('retry-after', String(RETRY_AFTER_UNAVAILABLE_S));
      return send(reply, 503, 'Service Unavailable');
    }
    reply.code(201);
    return parsed.batch ? { ids: accepted.map((log) => log.id) } : { id: accepted[0]!.id };
  });

  await app.register(async (photoScope) => {
    // Multipart parsing only for the photo route's scope; limits make busboy stop early and flag overruns.
    await photoScope.register(multipart, {
      limits: { fileSize: MAX_PHOTO_BYTES, files: 1, fields: 10, fieldSize: 32 * 1024, parts: 12, headerPairs: 100 },
    });

    photoScope.post('/photologs', async (request, reply) => {
      const auth = authorize(request, reply, deps.directory);
      if (!auth.ok) return reply;
      if (!request.isMultipart()) return send(reply, 415, 'Send the photo as multipart/form-data');

      let photo: Buffer | null = null;
      const fields: Record<string, string> = {};
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            if (part.fieldname !== 'photo' || photo !== null) {
              part.file.resume();
              return send(reply, 400, `Invalid field '${part.fieldname}': only one file, named 'photo', is accepted`, { field: part.fieldname });
            }
            photo = await part.toBuffer();
            if (part.file.truncated) return send(reply, 413, 'Photo is larger than 10 MB');
          } else {
            if (typeof part.value !== 'string') return send(reply, 400, `Invalid field '${part.fieldname}': must be text`, { field: part.fieldname });
            fields[part.fieldname] = part.value;
          }
        }
      } catch (error) {
        const status = (error as { statusCode?: unknown }).statusCode;
        if (status === 413) return send(reply, 413, 'Photo is larger than 10 MB or the form has too many parts');
        // Everything else thrown while reading parts is busboy refusing the client's bytes
        // ("Unexpected end of form", bad boundary, ...): the client's fault, never a 5xx.
        request.log.info({ err: error }, 'malformed multipart form');
        return send(reply, 400, 'Malformed multipart form');
      }
      if (photo === null || photo.length === 0) return send(reply, 400, "Invalid field 'photo': is required", { field: 'photo' });

      let input: LogInput;
      try {
        input = parsePhotoFields(fields);
      } catch (error) {
        if (error instanceof InvalidFieldError) return send(reply, 400, error.message, { field: error.field });
        throw error;
      }

      const at = now();
      if (!(await admitQuota(deps, reply, auth.owner, 1, at, request))) return reply;

      let processed: Awaited<ReturnType<typeof processPhoto>>;
      try {
        processed = await processPhoto(photo);
      } catch (error) {
        if (error instanceof UnsupportedImageError) return send(reply, 415, error.message);
        if (error instanceof ImageTooLargeError) return send(reply, 413, error.message);
        throw error;
      }

      const id = uuidv7(at);
      const segment = keySegment(auth.owner.serverId);
      const imageKey = `photos/${segment}/${id}.${processed.ext}`;
      const thumbKey = `thumbs/${segment}/${id}.webp`;
      try {
        await deps.objects.put(imageKey, processed.image, processed.contentType);
        await deps.objects.put(thumbKey, processed.thumb, 'image/webp');
        await deps.publisher.publish(auth.owner.serverId, [toAccepted(input, id, at, { imageKey, thumbKey })], at);
      } catch (error) {
        // Not accepted: remove whatever was written so no orphan object outlives the refusal.
        request.log.error({ err: error }, 'storing photo log failed');
        await deps.objects.delete([imageKey, thumbKey]).catch(() => undefined);
        reply.header('retry-after', String(RETRY_AFTER_UNAVAILABLE_S));
        return send(reply, 503, 'Service Unavailable');
      }
      reply.code(201);
      return { id };
    });
  });
}
