/**
 * Accepting a processed photo log: both objects are written, then the event is published; if any step
 * fails, whatever was written is deleted, so no orphan object outlives a refused request.
 */
import { createHash } from 'node:crypto';
import type { ObjectStore } from '@skald/ports';
import type { CoalescingPublisher } from './coalescing-publisher.ts';
import { toAccepted } from './accepted-log.ts';
import type { PhotoKeys } from './accepted-log.ts';
import type { LogInput } from './log-input.ts';
import type { ProcessedPhoto } from './photo.ts';

/** Object keys must be lowercase `[a-z0-9._-]`; server ids that are not get a stable hashed form. */
function keySegment(serverId: string): string {
  return /^[a-z0-9][a-z0-9_-]{0,63}$/.test(serverId) ? serverId : createHash('sha256').update(serverId).digest('hex').slice(0, 32);
}

export function photoKeys(serverId: string, id: string, ext: string): PhotoKeys {
  const segment = keySegment(serverId);
  return { imageKey: `photos/${segment}/${id}.${ext}`, thumbKey: `thumbs/${segment}/${id}.webp` };
}

export interface PhotoLogDeps {
  readonly objects: ObjectStore;
  readonly publisher: CoalescingPublisher;
}

/** Resolves once the photo log is durably accepted; rejects (after cleaning up) if it is not. */
export async function storePhotoLog(
  deps: PhotoLogDeps,
  serverId: string,
  input: LogInput,
  photo: ProcessedPhoto,
  id: string,
  at: number,
): Promise<void> {
  const keys = photoKeys(serverId, id, photo.ext);
  try {
    await deps.objects.put(keys.imageKey, photo.image, photo.contentType);
    await deps.objects.put(keys.thumbKey, photo.thumb, 'image/webp');
    await deps.publisher.publish(serverId, [toAccepted(input, id, at, keys)], at);
  } catch (error) {
    await deps.objects.delete([keys.imageKey, keys.thumbKey]).catch(() => undefined);
    throw error;
  }
}
