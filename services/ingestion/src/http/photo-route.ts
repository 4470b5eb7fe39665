/**
 * POST /photologs (docs/spec/part-2.txt section 7): one image (field `photo`, JPG/PNG/WEBP up to 10 MB) plus the log's text
 * fields, as multipart/form-data. Same order of checks as POST /logs (log-route.ts): the form is read and
 * its fields validated here, then the intake use case (domain/intake.ts) reads the quota before the image
 * is processed, so a full quota answers 429 without decoding anything, consumes it only once the image is
 * accepted (a 413 or 415 photo costs nothing) and gives it back if storing fails. Objects are stored
 * before the event is published. Multipart parsing is registered for this route's scope only.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LogAcceptedSchema } from '@skald/contracts';
import { HttpError } from '@skald/service-kit';
import { acceptPhoto } from '../domain/intake.ts';
import { parsePhotoFields } from '../domain/log-input.ts';
import { MAX_PHOTO_BYTES, PHOTO_TOO_LARGE } from '../domain/photo.ts';
import { INGESTION_REFUSALS, acceptedLogsCounter } from './admission.ts';
import type { ApiKeyHook } from './api-key-auth.ts';
import { apiKeyOwnerOf } from './api-key-auth.ts';
import type { IngestionRouteDeps } from './deps.ts';
import { translated } from './field-errors.ts';
import { admitPhoto } from './photo-admission.ts';

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
            'Counts as one log against the hourly quota. An optional `timestamp` field is the time it happened, as on POST /logs. ' +
            '503 + Retry-After when the service has no room for another photo.',
          response: {
            201: LogAcceptedSchema,
            ...INGESTION_REFUSALS,
          },
        },
      },
      async (request, reply) => {
        const owner = apiKeyOwnerOf(request);
        const form = await readPhotoForm(request);
        const input = translated(() => parsePhotoFields(form.fields));
        const id = await acceptPhoto(deps, owner, form.photo, input, request.log);
        acceptedLogs.inc({ route: request.routeOptions.url ?? '/photologs' });
        reply.code(201);
        return { id };
      },
    );
  });
}
