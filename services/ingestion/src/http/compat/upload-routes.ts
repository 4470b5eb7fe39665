/**
 * Screenshot uploads the way screenshot-basic and Fivemanage clients send them, stored as photo logs:
 *   POST /image, /v2/image, /v3/file   multipart: the file in `file`, `image` or `files[]`, optional
 *                                      `metadata` (JSON text) and `filename`
 *   POST /v3/file/base64               JSON {"base64": "<data URL or base64>", "filename", "metadata"}
 * The key is the raw Authorization header (or any native place). The answer carries `id` and `url` at the
 * top level and under `data` with `status: "ok"`, so callbacks written for either shape work.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UploadedFileSchema } from '@skald/contracts';
import type { UploadedFile } from '@skald/contracts';
import { HttpError } from '@skald/service-kit';
import { CompatShapeError, label, metadataOf } from '../../domain/compat/compat-log.ts';
import type { LogInput } from '../../domain/log-input.ts';
import { isPlainObject, normalizeLog } from '../../domain/log-input.ts';
import { MAX_PHOTO_BYTES, PHOTO_TOO_LARGE } from '../../domain/photo.ts';
import { INGESTION_REFUSALS } from '../admission.ts';
import { apiKeyAuth } from '../api-key-auth.ts';
import type { IngestionRouteDeps } from '../deps.ts';
import { translated } from '../field-errors.ts';
import { admitPhoto } from '../photo-admission.ts';
import { fivemanageKey } from './compat-keys.ts';
import { acceptUpload } from './photo-accept.ts';
import type { AcceptedPhoto } from './photo-accept.ts';
import { readUploadForm } from './upload-form.ts';
import type { FormFile } from './upload-form.ts';

/** A 10 MB file as base64 (4/3) in a JSON body, with room for the other fields. */
export const BASE64_BODY_LIMIT = Math.ceil((MAX_PHOTO_BYTES * 4) / 3) + 64 * 1024;

const SCREENSHOT_TYPE = 'Screenshot';

/** The photo log of an upload: the filename as message, `metadata` (JSON text or object) as metadata. */
export function uploadInput(filename: unknown, rawMetadata: unknown): LogInput {
  return translated(() => {
    let metadata: Record<string, unknown> | null = null;
    if (typeof rawMetadata === 'string' && rawMetadata.trim() !== '') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(rawMetadata);
      } catch {
        throw new CompatShapeError('metadata', 'a JSON object as text');
      }
      metadata = metadataOf(parsed, 'metadata');
    } else if (isPlainObject(rawMetadata) || Array.isArray(rawMetadata)) {
      metadata = metadataOf(rawMetadata, 'metadata');
    }
    return normalizeLog({ message: label(filename) ?? 'Screenshot', type: SCREENSHOT_TYPE, metadata }, '', false);
  });
}

function answer(photo: AcceptedPhoto): UploadedFile {
  return { id: photo.id, url: photo.url, status: 'ok', data: { id: photo.id, url: photo.url } };
}

async function multipartUpload(deps: IngestionRouteDeps, request: FastifyRequest): Promise<UploadedFile> {
  let file: FormFile | null = null;
  const fields = await readUploadForm(request, async (part) => {
    if (file !== null) throw new HttpError(400, `Invalid field '${part.field}': only one file is accepted`, { extra: { field: part.field } });
    file = part;
  });
  const upload = file as FormFile | null;
  if (upload === null || upload.bytes.length === 0) throw new HttpError(400, "Invalid field 'file': expected a file in a field named file, image or files[]", { extra: { field: 'file' } });
  const input = uploadInput(fields['filename'] ?? upload.filename, fields['metadata']);
  return answer(await acceptUpload(deps, request, upload.bytes, input));
}

const DATA_URL = /^data:[^;,]*(;[^,]*)?,/;

function base64Bytes(body: unknown): { bytes: Buffer; filename: unknown; metadata: unknown } {
  if (!isPlainObject(body) || typeof body['base64'] !== 'string') {
    throw new HttpError(400, `Invalid field 'base64': expected {"base64": "<data URL or base64 text>", "filename": "…", "metadata": "…"}`, { extra: { field: 'base64' } });
  }
  const text = body['base64'].replace(DATA_URL, '');
  if (!/^[A-Za-z0-9+/=_\s-]*$/.test(text)) throw new HttpError(400, "Invalid field 'base64': expected base64 text", { extra: { field: 'base64' } });
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length > MAX_PHOTO_BYTES) throw new HttpError(413, PHOTO_TOO_LARGE);
  if (bytes.length === 0) throw new HttpError(400, "Invalid field 'base64': the file is empty", { extra: { field: 'base64' } });
  return { bytes, filename: body['filename'], metadata: body['metadata'] };
}

const ROUTE_SCHEMA = {
  tags: ['ingestion', 'compatible'],
  response: { 200: UploadedFileSchema, ...INGESTION_REFUSALS },
};

export async function registerUploadRoutes(app: FastifyInstance, deps: IngestionRouteDeps): Promise<void> {
  const auth = apiKeyAuth(app, deps.directory, fivemanageKey);
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: MAX_PHOTO_BYTES, files: 1, fields: 10, fieldSize: 32 * 1024, parts: 12, headerPairs: 100 },
    });
    for (const url of ['/image', '/v2/image', '/v3/file']) {
      scope.post(
        url,
        {
          onRequest: [auth, admitPhoto()],
          schema: {
            ...ROUTE_SCHEMA,
            summary: 'Screenshot upload (screenshot-basic, Fivemanage SDK): multipart, the file in file, image or files[]',
            description: 'Stored as a photo log (JPG, PNG or WEBP, the limits of POST /photologs). Answers 200 {id, url, status, data: {id, url}}.',
          },
        },
        async (request) => multipartUpload(deps, request),
      );
    }
  });
  app.post(
    '/v3/file/base64',
    {
      bodyLimit: BASE64_BODY_LIMIT,
      onRequest: [auth, admitPhoto()],
      schema: {
        ...ROUTE_SCHEMA,
        summary: 'Screenshot upload as base64 JSON (Fivemanage v3)',
        description: 'Body {"base64": "<data URL or base64>", "filename", "metadata"}. Stored as a photo log. Answers 200 {id, url, status, data}.',
      },
    },
    async (request) => {
      const upload = base64Bytes(request.body);
      return answer(await acceptUpload(deps, request, upload.bytes, uploadInput(upload.filename, upload.metadata)));
    },
  );
}
