/**
 * The one path every compatible text log takes once its format is translated: the native validation
 * (normalizeLog, so limits and defaults are those of POST /logs), the hourly quota per log, and the durable
 * publish, in that order and with the same refusals as POST /logs (log-route.ts).
 */
import type { FastifyRequest } from 'fastify';
import { HttpError } from '@skald/service-kit';
import { toAccepted } from '../../domain/accepted-log.ts';
import { CompatShapeError } from '../../domain/compat/compat-log.ts';
import type { CompatLog } from '../../domain/compat/compat-log.ts';
import { InvalidFieldError, normalizeLog } from '../../domain/log-input.ts';
import type { LogInput } from '../../domain/log-input.ts';
import { uuidv7 } from '../../domain/uuidv7.ts';
import { admitQuota, unavailable } from '../admission.ts';
import { apiKeyOwnerOf } from '../api-key-auth.ts';
import type { IngestionRouteDeps } from '../deps.ts';

/** A mapper's refusal or a field the native rules refuse, as the 400 `{error, message, field}`. */
export function asBadRequest(error: unknown): never {
  if (error instanceof CompatShapeError || error instanceof InvalidFieldError) {
    throw new HttpError(400, error.message, { extra: { field: error.field } });
  }
  throw error;
}

/** Translates with `parse`, turning its refusals into 400s. */
export function translated<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    return asBadRequest(error);
  }
}

export function validated(logs: readonly CompatLog[]): LogInput[] {
  return translated(() => logs.map((log, i) => normalizeLog(log, logs.length === 1 ? '' : `[${i}].`)));
}

/** Validates, counts and publishes; resolves with the ids once the bus has them. */
export async function acceptLogs(deps: IngestionRouteDeps, request: FastifyRequest, logs: readonly CompatLog[]): Promise<string[]> {
  const owner = apiKeyOwnerOf(request);
  const inputs = validated(logs);
  if (inputs.length === 0) return [];
  const at = deps.now();
  const quota = await admitQuota(deps.counters, request, owner, inputs.length, at);
  const accepted = inputs.map((input) => toAccepted(input, uuidv7(at), at));
  try {
    await deps.publisher.publish(owner.serverId, accepted, at);
  } catch (error) {
    request.log.error({ err: error }, 'publishing accepted logs failed');
    await quota.giveBack();
    throw unavailable();
  }
  return accepted.map((log) => log.id);
}
