/**
 * Accepting one photo log from a compatible upload (screenshot uploads, Discord attachments): the same
 * steps as POST /photologs (photo-route.ts) — quota read before the decode, the image re-encoded, one
 * point consumed once it is accepted and given back if storing fails — and the answer a Fivemanage or
 * screenshot-basic client reads: the id and a link to the photo log's page (login required; never the
 * image itself, whose signed addresses expire).
 */
import type { FastifyRequest } from 'fastify';
import { storePhotoLog } from '../../domain/photo-log.ts';
import type { LogInput } from '../../domain/log-input.ts';
import { uuidv7 } from '../../domain/uuidv7.ts';
import { admitQuota, checkQuota, unavailable } from '../admission.ts';
import { apiKeyOwnerOf } from '../api-key-auth.ts';
import type { IngestionRouteDeps } from '../deps.ts';
import { processed } from '../photo-route.ts';

export interface AcceptedPhoto {
  readonly id: string;
  readonly url: string;
}

export function photoPageUrl(publicUrl: string, id: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/photologs?id=${encodeURIComponent(id)}`;
}

export async function acceptPhoto(deps: IngestionRouteDeps, request: FastifyRequest, bytes: Buffer, input: LogInput): Promise<AcceptedPhoto> {
  const owner = apiKeyOwnerOf(request);
  const at = deps.now();
  await checkQuota(deps.counters, request, owner, 1, at);
  const photo = await processed(bytes);
  const quota = await admitQuota(deps.counters, request, owner, 1, at);
  const id = uuidv7(at);
  try {
    await storePhotoLog(deps, owner.serverId, input, photo, id, at);
  } catch (error) {
    request.log.error({ err: error }, 'storing photo log failed');
    await quota.giveBack();
    throw unavailable();
  }
  return { id, url: photoPageUrl(deps.publicUrl, id) };
}
