/**
 * A photo log from a compatible upload (screenshot uploads, Discord attachments) goes through the one intake
 * use case (domain/intake.ts), like POST /photologs, and is answered the way a Fivemanage or screenshot-basic
 * client reads it: the id and a link to the photo log's page (login required; never the image itself,
 * whose signed addresses expire).
 */
import type { FastifyRequest } from 'fastify';
import { acceptPhoto } from '../../domain/intake.ts';
import type { LogInput } from '../../domain/log-input.ts';
import { apiKeyOwnerOf } from '../api-key-auth.ts';
import type { IngestionRouteDeps } from '../deps.ts';

export interface AcceptedPhoto {
  readonly id: string;
  readonly url: string;
}

export function photoPageUrl(publicUrl: string, id: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/photologs?id=${encodeURIComponent(id)}`;
}

export async function acceptUpload(deps: IngestionRouteDeps, request: FastifyRequest, bytes: Buffer, input: LogInput): Promise<AcceptedPhoto> {
  const id = await acceptPhoto(deps, apiKeyOwnerOf(request), bytes, input, request.log);
  return { id, url: photoPageUrl(deps.publicUrl, id) };
}
