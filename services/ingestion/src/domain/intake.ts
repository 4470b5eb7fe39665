/**
 * The ingestion use case, one for every route: the native POST /logs and /photologs and the compatible
 * formats (http/compat) only translate their body into validated LogInputs and answer their client's way;
 * what happens to the logs is decided here, once.
 *
 * Logs: the tier's hourly quota per log (429), then the durable publish; if the publish fails, the points
 * are given back and the answer is 503, so the client's retry of the same request does not cost twice.
 * A photo log: the quota read without consuming (a spent quota answers 429 before any image is decoded),
 * the image re-encoded (415, 413, or 503 when the process has no room), one point consumed once the image
 * is accepted (a refused photo costs nothing), then the objects stored and the event published, the point
 * given back and 503 if that fails (photo-log.ts deletes what was written).
 */
import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '@skald/service-kit';
import type { Counters, ObjectStore } from '@skald/ports';
import type { CoalescingPublisher } from './coalescing-publisher.ts';
import { toAccepted } from './accepted-log.ts';
import type { KeyOwner } from './key-directory.ts';
import type { LogInput } from './log-input.ts';
import { ImageTooLargeError, processPhoto, UnsupportedImageError } from './photo.ts';
import type { ProcessedPhoto } from './photo.ts';
import { PhotoBusyError } from './photo-gate.ts';
import { storePhotoLog } from './photo-log.ts';
import { admitQuota, checkQuota } from './quota-admission.ts';
import { photoBusy, unavailable } from './refusals.ts';
import { uuidv7 } from './uuidv7.ts';

export interface IntakeDeps {
  readonly counters: Counters;
  readonly objects: ObjectStore;
  readonly publisher: CoalescingPublisher;
  readonly now: () => number;
}

/**
 * Accepts validated logs for the key's server; resolves with their ids, in order, once the bus has them
 * durably. `log` is the request's logger (failures are logged with its request id). No logs: nothing to do.
 */
export async function acceptLogs(deps: IntakeDeps, owner: KeyOwner, inputs: readonly LogInput[], log: FastifyBaseLogger): Promise<string[]> {
  if (inputs.length === 0) return [];
  const at = deps.now();
  const quota = await admitQuota(deps.counters, log, owner, inputs.length, at);
  const accepted = inputs.map((input) => toAccepted(input, uuidv7(at), at));
  try {
    await deps.publisher.publish(owner.serverId, accepted, at);
  } catch (error) {
    log.error({ err: error }, 'publishing accepted logs failed');
    await quota.giveBack();
    throw unavailable();
  }
  return accepted.map((one) => one.id);
}

/** The photo re-encoded, its refusals as answers (415, 413, 503). */
async function processed(photo: Buffer): Promise<ProcessedPhoto> {
  try {
    return await processPhoto(photo);
  } catch (error) {
    if (error instanceof UnsupportedImageError) throw new HttpError(415, error.message);
    if (error instanceof ImageTooLargeError) throw new HttpError(413, error.message);
    if (error instanceof PhotoBusyError) throw photoBusy(error);
    throw error;
  }
}

/** Accepts one photo log (the uploaded bytes and its validated fields); resolves with its id once stored and published. */
export async function acceptPhoto(deps: IntakeDeps, owner: KeyOwner, bytes: Buffer, input: LogInput, log: FastifyBaseLogger): Promise<string> {
  const at = deps.now();
  await checkQuota(deps.counters, log, owner, 1, at);
  const photo = await processed(bytes);
  const quota = await admitQuota(deps.counters, log, owner, 1, at);
  const id = uuidv7(at);
  try {
    await storePhotoLog(deps, owner.serverId, input, photo, id, at);
  } catch (error) {
    log.error({ err: error }, 'storing photo log failed');
    await quota.giveBack();
    throw unavailable();
  }
  return id;
}
