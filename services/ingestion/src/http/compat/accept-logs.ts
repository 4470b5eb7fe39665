/**
 * Every compatible text log, once its format is translated, takes the native validation (normalizeLog, so
 * limits and defaults are those of POST /logs) and then the one intake use case (domain/intake.ts): the
 * quota per log and the durable publish, with the same refusals as POST /logs.
 */
import type { FastifyRequest } from 'fastify';
import type { CompatLog } from '../../domain/compat/compat-log.ts';
import { acceptLogs } from '../../domain/intake.ts';
import { normalizeLog } from '../../domain/log-input.ts';
import type { LogInput } from '../../domain/log-input.ts';
import { apiKeyOwnerOf } from '../api-key-auth.ts';
import type { IngestionRouteDeps } from '../deps.ts';
import { translated } from '../field-errors.ts';

export function validated(logs: readonly CompatLog[]): LogInput[] {
  return translated(() => logs.map((log, i) => normalizeLog(log, logs.length === 1 ? '' : `[${i}].`)));
}

/** Validates, counts and publishes; resolves with the ids once the bus has them. */
export async function acceptCompatLogs(deps: IngestionRouteDeps, request: FastifyRequest, logs: readonly CompatLog[]): Promise<string[]> {
  const owner = apiKeyOwnerOf(request);
  return acceptLogs(deps, owner, validated(logs), request.log);
}
