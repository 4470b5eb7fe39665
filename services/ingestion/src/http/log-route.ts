/**
 * POST /logs (docs/spec/part-2.txt section 3): one log as a JSON object, or a batch of 1..1000 as a JSON array.
 *
 * Order of checks, each answering before any work the next step would cost:
 *   key (401) -> suspension (403) -> whole body valid (400/413/415) -> then the intake use case
 *   (domain/intake.ts): quota per log (429) -> durable publish (503 if the bus refuses) -> 201 with the
 *   generated id(s).
 * Nothing from a refused request is published, and a refused request costs no quota: the points are
 * consumed only after the body is valid and given back if the publish fails.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CompatStatusSchema, PostLogsAnswerSchema } from '@skald/contracts';
import type { CompatStatus } from '@skald/contracts';
import { acceptLogs } from '../domain/intake.ts';
import { parseLogBody } from '../domain/log-input.ts';
import { INGESTION_REFUSALS, LOGS_BODY_LIMIT, acceptedLogsCounter } from './admission.ts';
import type { ApiKeyHook } from './api-key-auth.ts';
import { apiKeyOwnerOf } from './api-key-auth.ts';
import type { IngestionRouteDeps } from './deps.ts';
import { translated } from './field-errors.ts';

/** How POST /logs answers a key sent as the raw Authorization header: Fivemanage's route (routes.ts gives it). */
export type RawKeyLogs = (request: FastifyRequest) => Promise<CompatStatus>;

export async function registerLogRoute(app: FastifyInstance, deps: IngestionRouteDeps, apiKey: ApiKeyHook, rawKeyLogs: RawKeyLogs): Promise<void> {
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
          'before anything is accepted; each log counts against the hourly quota of the tier. A log may carry `timestamp` ' +
          '(ISO 8601 with its offset, or epoch milliseconds): the time it happened, taken from 24 hours before the arrival ' +
          'to 5 minutes after it (else the arrival, noted in metadata._skald). With the key as the raw ' +
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
      if (request.apiKeySource === 'raw') return rawKeyLogs(request);
      const owner = apiKeyOwnerOf(request);
      const parsed = translated(() => parseLogBody(request.body));
      const ids = await acceptLogs(deps, owner, parsed.logs, request.log);
      acceptedLogs.inc({ route: request.routeOptions.url ?? '/logs' }, ids.length);
      reply.code(201);
      return parsed.batch ? { ids } : { id: ids[0]! };
    },
  );
}
