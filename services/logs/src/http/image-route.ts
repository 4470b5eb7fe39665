/**
 * GET /photologs/image/:id?t=<signed token>: serves a photo or thumbnail to an <img> tag.
 * The token (see domain/image-url.ts) is the authorisation; it is only handed out in role-checked answers,
 * so this route has no access-token guard.
 */
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { ErrorBodySchema } from '@skald/contracts';
import { HttpError } from '@skald/service-kit';
import type { LogsRouteDeps } from './deps.ts';

const EXTENSIONS: Readonly<Record<string, string>> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };

const ImageParams = Type.Object({ id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }) }, { additionalProperties: false });
const ImageQuery = Type.Object({ t: Type.String({ minLength: 1, maxLength: 2048 }) }, { additionalProperties: false });
/** The object store's stream, sent as it is (never serialised); described as binary for the OpenAPI document. */
const ImageBytes = { schema: Type.Unsafe<Readable>({ type: 'string', format: 'binary' }) };

export async function registerImageRoute(app: FastifyInstance, deps: LogsRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  typed.get(
    '/photologs/image/:id',
    {
      schema: {
        tags: ['photologs'],
        summary: 'A photo or thumbnail, through the signed URL of image_path / thumb_path',
        description: 'Authorised by the signed, expiring token `t` alone (an <img> tag sends no Authorization header).',
        // No access token: the signed URL is the capability.
        security: [],
        params: ImageParams,
        querystring: ImageQuery,
        response: {
          200: {
            description: 'The image (nosniff, private cache); any other stored type is an attachment',
            content: { 'image/jpeg': ImageBytes, 'image/png': ImageBytes, 'image/webp': ImageBytes, 'application/octet-stream': ImageBytes },
          },
          400: ErrorBodySchema,
          404: ErrorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const access = deps.signer.verify(request.params.id, request.query.t, deps.now());
      // Same answer for a bad signature, an expired link and a deleted photo: nothing to learn by probing.
      if (!access) throw new HttpError(404, 'Image not found');
      const object = await deps.objects.get(access.objectKey);
      if (!object) throw new HttpError(404, 'Image not found');
      const extension = EXTENSIONS[object.contentType];
      const suffix = access.variant === 'thumb' ? '-thumb' : '';
      return reply
        // Anything that is not one of the three image types is served as a download, never rendered.
        .type(extension ? object.contentType : 'application/octet-stream')
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', `${extension ? 'inline' : 'attachment'}; filename="photolog-${request.params.id}${suffix}.${extension ?? 'bin'}"`)
        .header('cache-control', 'private, max-age=600')
        .header('content-length', String(object.size))
        .send(object.body);
    },
  );
}
