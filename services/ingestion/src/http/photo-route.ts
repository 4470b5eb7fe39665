/**
 * POST /photologs (spec 001 §7): one image (field `photo`, JPG/PNG/WEBP up to 10 MB) plus the log's text
 * fields, as multipart/form-data. Same order of checks as POST /logs (log-route.ts). The quota is read
 * before the image is processed (domain/photo.ts), so a full quota answers 429 without decoding anything,
 * but consumed only once the image is accepted (a 413 or 415 photo costs nothing) and given back if
 * storing fails. Objects are stored before the event is published. Multipart parsing is registered for
 * this route's scope only.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LogAcceptedSchema } from '@skald/contracts';
import { HttpError } from '@skald/service-kit';
import { InvalidFieldError, parsePhotoFields } from '../domain/log-input.ts';
import type { LogInput } from '../domain/log-input.ts';
import { ImageTooLargeError, MAX_PHOTO_BYTES, processPhoto, UnsupportedImageError } from '../domain/photo.ts';
import { PhotoBusyError } from '../domain/photo-gate.ts';
import type { ProcessedPhoto } from '../domain/photo.ts';
import { storePhotoLog } from '../domain/photo-log.ts';
import { uuidv7 } from '../domain/uuidv7.ts';
import { INGESTION_REFUSALS, acceptedLogsCounter, admitQuota, checkQuota, unavailable } from './admission.ts';
import type { ApiKeyHook } from './api-key-auth.ts';
import { apiKeyOwnerOf } from './api-key-auth.ts';
import type { IngestionRouteDeps } from './deps.ts';
import { admitPhoto, photoBusy } from './photo-admission.ts';

export const PHOTO_TOO_LARGE = 'Photo is larger than 10 MB';

interface PhotoForm {
  readonly photo: Buffer;
  readonly fields: Readonly<Record<string, string>>;
}

function invalidField(field: string, reason: string): HttpError {
  return new HttpError(400, `Invalid field '${field}': ${reason}`, { extra: { field } });
}

/** Reads the whole form: exactly one file named `photo`, text fields beside it. */
async function readPhotoForm(request: FastifyRequest): Promise<PhotoForm> {
  if (!request.isMultipart()) throw new HttpError(415, 'Send the photo as multipart/form-data');
  let photo: Buffer | null = null;
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'photo' || photo !== null) {
          part.file.resume();
          throw invalidField(part.fieldname, "only one file, named 'photo', is accepted");
        }
        photo = await part.toBuffer();
        if (part.file.truncated) throw new HttpError(413, PHOTO_TOO_LARGE);
      } else {
        if (typeof part.value !== 'string') throw invalidField(part.fieldname, 'must be text');
        // busboy has already decoded the bytes, replacing invalid UTF-8 with U+FFFD; the JSON routes refuse
        // invalid UTF-8, so a replacement character here is refused too (a game never sends one on purpose).
        if (part.value.includes('\uFFFD')) throw invalidField(part.fieldname, 'is not valid UTF-8');
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    const status = (error as { statusCode?: unknown }).statusCode;
    if (status === 413) throw new HttpError(413, `${PHOTO_TOO_LARGE} or the form has too many parts`);
    // Everything else thrown while reading parts is busboy refusing the client's bytes
    // ("Unexpected end of form", bad boundary, ...): the client's fault, never a 5xx.
    request.log.info({ err: error }, 'malformed multipart form');
    throw new HttpError(400, 'Malformed multipart form');
  }
  if (photo === null || photo.length === 0) throw invalidField('photo', 'is required');
  return { photo, fields };
}

function photoInput(fields: Readonly<Record<string, string>>): LogInput {
  try {
    return parsePhotoFields(fields);
  } catch (error) {
    if (error instanceof InvalidFieldError) throw new HttpError(400, error.message, { extra: { field: error.field } });
    throw error;
  }
}

/** The photo re-encoded, its refusals as answers (415, 413, 503); shared with the compatible upload routes. */
export async function processed(photo: Buffer): Promise<ProcessedPhoto> {
  try {
    return await processPhoto(photo);
  } catch (error) {
    if (error instanceof UnsupportedImageError) throw new HttpError(415, error.message);
    if (error instanceof ImageTooLargeError) throw new HttpError(413, error.message);
    if (error instanceof PhotoBusyError) throw photoBusy(error);
    throw error;
  }
}

export async function registerPhotoRoute(app: FastifyInstance, deps: IngestionRouteDeps, apiKey: ApiKeyHook): Promise<void> {
  const acceptedLogs = acceptedLogsCounter(app);
  await app.register(async (photoScope) => {
    // Limits make busboy stop early and flag overruns.
    await photoScope.register(multipart, {
      limits: { fileSize: MAX_PHOTO_BYTES, files: 1, fields: 10, fieldSize: 32 * 1024, parts: 12, headerPairs: 100 },
    });

    photoScope.post(
      '/photologs',
      {
        // The photo gate after the key: no room in the process is a 503 before the body is read.
        onRequest: [apiKey, admitPhoto()],
        schema: {
          tags: ['ingestion'],
          summary: "Send a photo log (multipart/form-data: `photo` plus the log's text fields) with the server's API key",
          description:
            'JPG, PNG or WEBP up to 10 MB and 40 megapixels, re-encoded without metadata (scaled down to at most ' +
            '3840x2160 pixels worth, 2560x1440 for a WebP with transparency), with a WebP thumbnail. ' +
            'Counts as one log against the hourly quota. 503 + Retry-After when the service has no room for another photo.',
          response: {
            201: LogAcceptedSchema,
            ...INGESTION_REFUSALS,
          },
        },
      },
      async (request, reply) => {
        const owner = apiKeyOwnerOf(request);
        const form = await readPhotoForm(request);
        const input = photoInput(form.fields);
        const at = deps.now();
        await checkQuota(deps.counters, request, owner, 1, at);
        const photo = await processed(form.photo);
        const quota = await admitQuota(deps.counters, request, owner, 1, at);
        const id = uuidv7(at);
        try {
          await storePhotoLog(deps, owner.serverId, input, photo, id, at);
        } catch (error) {
          request.log.error({ err: error }, 'storing photo log failed');
          await quota.giveBack();
          throw unavailable();
        }
        acceptedLogs.inc({ route: request.routeOptions.url ?? '/photologs' });
        reply.code(201);
        return { id };
      },
    );
  });
}
