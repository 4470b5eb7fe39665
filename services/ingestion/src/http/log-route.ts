/**
 * POST /logs (spec 001 §3): one log as a JSON object, or a batch of 1..1000 as a JSON array.
 *
 * Order of checks, each answering before any work the next step would cost:
 *   key (401) -> suspension (403) -> whole body valid (400/413/415) -> quota per log (429) -> durable
 *   publish (503 if the bus refuses) -> 201 with the generated id(s).
 * Nothing from a refused request is published, and a refused request costs no quota: the points are
 * consumed only after the body is valid and given back if the publish fails.
 */
import type { FastifyInstance } from 'fastify';
import { CompatStatusSchema, PostLogsAnswerSchema } from '@skald/contracts';
import { HttpError } from '@skald/service-kit';
import { toAccepted } from '../domain/accepted-log.ts';
import { InvalidFieldError, parseLogBody } from '../domain/log-input.ts';
import type { ParsedLogBody } from '../domain/log-input.ts';
import { uuidv7 } from '../domain/uuidv7.ts';
import { INGESTION_REFUSALS, acceptedLogsCounter, admitQuota, unavailable } from './admission.ts';
import type { ApiKeyHook } from './api-key-auth.ts';
import { apiKeyOwnerOf } from './api-key-auth.ts';
import type { IngestionRouteDeps } from './deps.ts';
import { acceptFivemanage } from './compat/fivemanage-answer.ts';

/** JSON body limit of POST /logs: a batch of 1000 typical logs fits with a wide margin. */
export const LOGS_BODY_LIMIT = 5 * 1024 * 1024;

export async function registerLogRoute(app: FastifyInstance, deps: IngestionRouteDeps, apiKey: ApiKeyHook): Promise<void> {
  const acceptedLogs = acceptedLogsCounter(app);
  app.post(
    '/logs',
    {
      bodyLimit: LOGS_BODY_LIMIT,
      onRequest: apiKey,
      schema: {
        tags: ['ingestion'],
        summary: "Send one log (JSON object) or a batch of up to 1000 (JSON array) with the server's API key",
        description:
          'The key goes in X-API-Key or Authorization: Bearer (?apiKey= is deprecated). The whole request is validated ' +
          'before anything is accepted; each log counts against the hourly quota of the tier. With the key as the raw ' +
          'Authorization header (no scheme), the route is Fivemanage\'s POST /api/logs: answers 200 {"status":"ok"}.',
        // Hand-written validation (domain/log-input.ts) names the exact refused field, so no body schema.
        response: {
          200: CompatStatusSchema,
          201: PostLogsAnswerSchema,
          ...INGESTION_REFUSALS,
        },
      },
    },
    async (request, reply) => {
      // Fivemanage clients (qb-log, the Fivemanage SDK) post here with `Authorization: <key>`.
      if (request.apiKeySource === 'raw') return acceptFivemanage(deps, request);
      const owner = apiKeyOwnerOf(request);
      let parsed: ParsedLogBody;
      try {
        parsed = parseLogBody(request.body);
      } catch (error) {
        if (error instanceof InvalidFieldError) throw new HttpError(400, error.message, { extra: { field: error.field } });
        throw error;
      }
      const at = deps.now();
      const quota = await admitQuota(deps.counters, request, owner, parsed.logs.length, at);
      const accepted = parsed.logs.map((input) => toAccepted(input, uuidv7(at), at));
      try {
        await deps.publisher.publish(owner.serverId, accepted, at);
      } catch (error) {
        request.log.error({ err: error }, 'publishing accepted logs failed');
        await quota.giveBack();
        throw unavailable();
      }
      acceptedLogs.inc({ route: request.routeOptions.url ?? '/logs' }, accepted.length);
      reply.code(201);
      return parsed.batch ? { ids: accepted.map((log) => log.id) } : { id: accepted[0]!.id };
    },
  );
}
