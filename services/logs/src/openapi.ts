/**
 * OpenAPI 3.1 description of the logs service's routes, served by the gateway. Paths are relative to the
 * `/api` server URL. Parameter and body schemas are the same TypeBox schemas the routes validate with.
 */
import { LOG_LEVELS } from '@skald/contracts';
import { MAX_PAGE_SIZE, UNPAGED_LIMIT } from './domain/list-query.ts';
import { LevelColorsUpdateSchema } from './domain/level-colors.ts';

const serverIdParam = { name: 'serverId', in: 'query', required: true, schema: { type: 'string' }, description: 'Server id; non-members get 404.' };
const text = (name: string, description: string) => ({ name, in: 'query', required: false, schema: { type: 'string', maxLength: 200 }, description });
const listParams = [
  serverIdParam,
  text('search', 'Case-insensitive substring over message, type, level, resource and metadata text.'),
  text('type', 'Case-insensitive equality.'),
  text('level', 'Case-insensitive equality.'),
  text('resource', 'Case-insensitive equality.'),
  { name: 'dateFrom', in: 'query', required: false, schema: { type: 'string', format: 'date' }, description: 'YYYY-MM-DD, from 00:00:00.000 UTC (inclusive). Empty = no bound.' },
  { name: 'dateTo', in: 'query', required: false, schema: { type: 'string', format: 'date' }, description: 'YYYY-MM-DD, to 23:59:59.999 UTC (inclusive). Empty = no bound.' },
  { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1 }, description: `From 1. Without page the newest ${UNPAGED_LIMIT} logs are answered.` },
  { name: 'pageSize', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE }, description: 'Default 10 (logs) or 6 (photo logs).' },
];
const totalHeader = { 'X-Total-Count': { description: 'Number of logs matching the filters (all pages).', schema: { type: 'integer' } } };
const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
const commonErrors = { '400': error('Invalid parameter (the error names it)'), '401': error('Not signed in'), '404': error('Unknown server or not a member') };
const json = (schema: unknown) => ({ 'application/json': { schema } });

const countEntry = { type: 'object', properties: { name: { type: 'string' }, text: { type: 'integer' }, photo: { type: 'integer' } }, required: ['name', 'text', 'photo'] };

export const logsOpenApi = {
  openapi: '3.1.0',
  info: { title: 'Skald logs API', version: '1.0.0', description: 'Read side of the log pipeline. Every time and day is UTC. Lists are newest first.' },
  servers: [{ url: '/api' }],
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    schemas: {
      Error: { type: 'object', properties: { error: { type: 'string' }, message: { type: 'string' } }, required: ['error', 'message'] },
      Log: {
        type: 'object',
        properties: {
          id: { type: 'string', description: 'UUIDv7 assigned at ingestion' },
          created_at: { type: 'string', format: 'date-time' },
          level: { type: 'string', enum: [...LOG_LEVELS] },
          type: { type: 'string' },
          resource: { type: 'string' },
          message: { type: 'string' },
          metadata: { type: ['object', 'null'] },
          log_type: { type: 'string', enum: ['text', 'photo'] },
          image_path: { type: ['string', 'null'], description: 'Relative signed URL of the photo (valid 10-20 minutes); null for text logs.' },
          thumb_path: { type: ['string', 'null'], description: 'Relative signed URL of the thumbnail; null for text logs.' },
        },
        required: ['id', 'created_at', 'level', 'type', 'resource', 'message', 'metadata', 'log_type', 'image_path', 'thumb_path'],
      },
      LevelColor: { type: 'object', properties: { bg_color: { type: 'string' }, text_color: { type: 'string' } }, required: ['bg_color', 'text_color'] },
    },
  },
  security: [{ bearer: [] }],
  paths: {
    '/logs/my': {
      get: {
        summary: 'Text logs of a server (filtered, searched and paged on the server)',
        parameters: listParams,
        responses: { '200': { description: 'Logs', headers: totalHeader, content: json({ type: 'array', items: { $ref: '#/components/schemas/Log' } }) }, ...commonErrors },
      },
    },
    '/logs/my/combined': {
      get: {
        summary: 'Text and photo logs together',
        parameters: listParams,
        responses: { '200': { description: 'Logs', headers: totalHeader, content: json({ type: 'array', items: { $ref: '#/components/schemas/Log' } }) }, ...commonErrors },
      },
    },
    '/photologs/my': {
      get: {
        summary: 'Photo logs of a server',
        parameters: listParams,
        responses: {
          '200': {
            description: 'Photo logs and the tier limit',
            headers: totalHeader,
            content: json({
              type: 'object',
              properties: { photologs: { type: 'array', items: { $ref: '#/components/schemas/Log' } }, maxPhotoLogs: { type: 'integer' }, total: { type: 'integer' } },
              required: ['photologs', 'maxPhotoLogs', 'total'],
            }),
          },
          ...commonErrors,
        },
      },
    },
    '/photologs/image/{id}': {
      get: {
        summary: 'A photo or thumbnail, through the signed URL found in image_path / thumb_path',
        security: [],
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
          { name: 't', in: 'query', required: true, schema: { type: 'string' }, description: 'Signed expiring token' },
        ],
        responses: {
          '200': { description: 'The image (image/jpeg, image/png or image/webp), nosniff, inline, private cache', content: { 'image/*': { schema: { type: 'string', format: 'binary' } } } },
          '404': error('Bad or expired token, or deleted photo'),
        },
      },
    },
    '/logs/stats': {
      get: {
        summary: 'Dashboard statistics from rollups (spec 000 §9)',
        parameters: [serverIdParam],
        responses: {
          '200': {
            description: 'Stats',
            content: json({
              type: 'object',
              properties: {
                totals: { type: 'object', properties: { all: { type: 'integer' }, text: { type: 'integer' }, photo: { type: 'integer' } } },
                last7Days: { type: 'array', items: { type: 'object', properties: { date: { type: 'string', format: 'date' }, text: { type: 'integer' }, photo: { type: 'integer' } } } },
                currentWeekTotal: { type: 'integer' },
                previousWeekTotal: { type: 'integer' },
                averagePerDay: { type: 'integer', description: 'currentWeekTotal / 7, rounded' },
                trend: { type: 'integer', description: 'Percent vs previous 7 days; 100 if previous is 0 and current > 0; 0 if both 0' },
                perType: { type: 'array', items: countEntry },
                perLevel: { type: 'array', items: countEntry },
                perResource: { type: 'array', items: countEntry },
                recentPhotos: { type: 'array', maxItems: 8, items: { $ref: '#/components/schemas/Log' } },
              },
            }),
          },
          ...commonErrors,
        },
      },
    },
    '/logs/cleanup': {
      delete: {
        summary: 'Delete logs older than `days` days (0 = all); admin or owner',
        parameters: [serverIdParam, { name: 'days', in: 'query', required: true, schema: { type: 'integer', minimum: 0 } }],
        responses: {
          '200': { description: 'Deleted', content: json({ type: 'object', properties: { deletedCount: { type: 'integer' } }, required: ['deletedCount'] }) },
          '400': error("'Insert a valid amount of days (0 or more)'"),
          '403': error('Role user'),
          '401': commonErrors['401'],
          '404': commonErrors['404'],
        },
      },
    },
    '/server/usage/{id}': {
      get: {
        summary: 'Quota usage of the current hour and tier limits',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': {
            description: 'Usage',
            content: json({
              type: 'object',
              properties: {
                used: { type: 'integer' },
                limit: { type: 'integer' },
                reset: { type: 'string', format: 'date-time' },
                tierLabel: { type: 'string' },
                retentionDays: { type: 'integer' },
                maxBackups: { type: 'integer' },
                maxWebhooks: { type: 'integer' },
                maxPhotoLogs: { type: 'integer' },
              },
            }),
          },
          '403': error("Suspended server: error 'Server suspended'"),
          '401': commonErrors['401'],
          '404': commonErrors['404'],
        },
      },
    },
    '/settings/colors': {
      get: {
        summary: 'Level colours (defaults from spec 000 §3)',
        parameters: [serverIdParam],
        responses: { '200': { description: 'Map level -> colours', content: json({ type: 'object', additionalProperties: { $ref: '#/components/schemas/LevelColor' } }) }, ...commonErrors },
      },
      put: {
        summary: 'Change level colours (admin or owner); levels left out keep their colours',
        parameters: [serverIdParam],
        requestBody: { required: true, content: json(LevelColorsUpdateSchema) },
        responses: { '200': { description: 'The full map after the change', content: json({ type: 'object', additionalProperties: { $ref: '#/components/schemas/LevelColor' } }) }, ...commonErrors, '403': error('Role user') },
      },
    },
    '/settings/levels': {
      get: {
        summary: 'Levels whose colours can be set',
        parameters: [serverIdParam],
        responses: { '200': { description: 'Levels', content: json({ type: 'object', properties: { types: { type: 'array', items: { type: 'string' } } } }) }, ...commonErrors },
      },
    },
  },
} as const;
