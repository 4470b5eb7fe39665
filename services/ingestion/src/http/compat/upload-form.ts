/**
 * Reading the multipart forms compatible clients send: screenshot-basic (`requestScreenshotUpload(url,
 * field, …)`: the field is whatever the script passes, in practice `file`, `image` or `files[]`), the
 * Fivemanage SDK (`image` on /api/v2/image, `file` on /api/v3/file, plus a `metadata` JSON text) and Discord
 * (`files[0]`…, `file`, with the message as `payload_json`). Each file is handed to `onFile` as soon as it
 * is read, so only one upload's bytes are held at a time; text fields are collected.
 */
import type { FastifyRequest } from 'fastify';
import { HttpError } from '@skald/service-kit';
import { PHOTO_TOO_LARGE } from '../../domain/photo.ts';

/** `file`, `image`, `files[]`, `files[3]`, `file1`: the names these clients give an uploaded file. */
export const FILE_FIELD = /^(file|image|files?(\[\d*\])?|file\d+|photo|screenshot)$/i;

export interface FormFile {
  readonly field: string;
  readonly filename: string;
  readonly bytes: Buffer;
}

export async function readUploadForm(
  request: FastifyRequest,
  onFile: (file: FormFile) => Promise<void>,
): Promise<Record<string, string>> {
  if (!request.isMultipart()) throw new HttpError(415, 'Send the file as multipart/form-data');
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (!FILE_FIELD.test(part.fieldname)) {
          part.file.resume();
          throw new HttpError(400, `Invalid field '${part.fieldname}': expected the file in a field named file, image or files[]`, {
            extra: { field: part.fieldname },
          });
        }
        const bytes = await part.toBuffer();
        if (part.file.truncated) throw new HttpError(413, PHOTO_TOO_LARGE);
        await onFile({ field: part.fieldname, filename: part.filename, bytes });
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    const status = (error as { statusCode?: unknown }).statusCode;
    if (status === 413) throw new HttpError(413, `${PHOTO_TOO_LARGE} or the form has too many parts`);
    if (typeof status === 'number' && status < 500) throw error;
    request.log.info({ err: error }, 'malformed multipart form');
    throw new HttpError(400, 'Malformed multipart form');
  }
  return fields;
}
