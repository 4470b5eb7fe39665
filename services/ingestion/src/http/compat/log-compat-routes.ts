/**
 * The compatible text-log endpoints (docs/INGESTION.md "Compatible endpoints"): each authenticates the
 * server's API key where its client puts it (compat-keys.ts), translates the body (domain/compat/) and
 * accepts the logs through the intake use case (accept-logs.ts, domain/intake.ts), answering what the client expects:
 *   POST /loki/api/v1/push      Loki push, JSON or snappy protobuf       204
 *   POST /v2/logs               Datadog logs intake v2                   202
 *   POST /logs/batch, /v3/logs  Fivemanage logs                          200 {"status":"ok"}
 * (POST /logs itself answers Fivemanage's way when the key came scheme-less in Authorization: log-route.ts.)
 * Compressed bodies (gzip, deflate) are accepted on all of them; the limit applies to the decompressed size.
 */
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { CompatStatusSchema } from '@skald/contracts';
import { parseDatadogBody } from '../../domain/compat/datadog.ts';
import { parseLokiJson, parseLokiProtobuf } from '../../domain/compat/loki.ts';
import { INGESTION_REFUSALS, LOGS_BODY_LIMIT } from '../admission.ts';
import { apiKeyAuth } from '../api-key-auth.ts';
import type { IngestionRouteDeps } from '../deps.ts';
import { asBadRequest, translated } from '../field-errors.ts';
import { acceptCompatLogs } from './accept-logs.ts';
import { decompressBody } from './body-encoding.ts';
import { datadogKey, fivemanageKey, lokiKey } from './compat-keys.ts';
import { acceptFivemanage } from './fivemanage-answer.ts';

const EMPTY = Type.Null({ description: 'No body' });

export async function registerLogCompatRoutes(app: FastifyInstance, deps: IngestionRouteDeps): Promise<void> {
  // Loki's protobuf push: the body is a snappy block, decoded by the route (raw bytes here).
  app.addContentTypeParser('application/x-protobuf', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post(
    '/loki/api/v1/push',
    {
      bodyLimit: LOGS_BODY_LIMIT,
      onRequest: apiKeyAuth(app, deps.directory, lokiKey),
      preParsing: decompressBody,
      schema: {
        tags: ['ingestion', 'compatible'],
        summary: 'Loki push (JSON or snappy protobuf): the endpoint ox_lib\'s loki provider and Promtail-style clients call',
        description:
          'The key is the Basic-auth password (any user name) or ?apiKey=. Stream labels: event → type, resource → resource, ' +
          'others → metadata; a JSON line {"message": …} is unpacked into message and metadata. Answers 204.',
        response: { 204: EMPTY, ...INGESTION_REFUSALS },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const logs = Buffer.isBuffer(body) ? await parseLokiProtobuf(body).catch(asBadRequest) : translated(() => parseLokiJson(body));
      await acceptCompatLogs(deps, request, logs);
      return reply.code(204).send();
    },
  );

  app.post(
    '/v2/logs',
    {
      bodyLimit: LOGS_BODY_LIMIT,
      onRequest: apiKeyAuth(app, deps.directory, datadogKey),
      preParsing: decompressBody,
      schema: {
        tags: ['ingestion', 'compatible'],
        summary: 'Datadog logs intake v2: the endpoint ox_lib\'s datadog provider calls (key in DD-API-KEY)',
        description: 'service → type, resource → resource, ddtags → metadata.tags (split on the first colon). Answers 202 {}.',
        response: { 202: Type.Object({}, { additionalProperties: false }), ...INGESTION_REFUSALS },
      },
    },
    async (request, reply) => {
      await acceptCompatLogs(deps, request, translated(() => parseDatadogBody(request.body)));
      return reply.code(202).send({});
    },
  );

  for (const url of ['/logs/batch', '/v3/logs']) {
    app.post(
      url,
      {
        bodyLimit: LOGS_BODY_LIMIT,
        onRequest: apiKeyAuth(app, deps.directory, fivemanageKey),
        preParsing: decompressBody,
        schema: {
          tags: ['ingestion', 'compatible'],
          summary: 'Fivemanage logs: one log or an array (key as the raw Authorization header)',
          description: 'The X-Fivemanage-Dataset header, when set and not "default", becomes the type. Answers 200 {"status":"ok"}.',
          response: { 200: CompatStatusSchema, ...INGESTION_REFUSALS },
        },
      },
      async (request) => acceptFivemanage(deps, request),
    );
  }
}
