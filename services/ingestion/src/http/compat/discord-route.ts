/**
 * Discord-webhook-shaped inbound URLs: `POST /discord/{key}`, `/discord/{key}/{category}` and
 * `/discord/{key}/{id}/{token}` (a Discord webhook URL's tail pasted after the key). A script's Discord webhook URL
 * is replaced by this one; the body is what the script already sends (JSON, or multipart with
 * `payload_json` and attachments). Embeds and content become logs (domain/compat/discord.ts), image
 * attachments photo logs (other attachments are listed in the logs' metadata, not stored). Answers 204
 * like Discord.
 *
 * The key sits in the URL path, so the gateway's log redaction scrubs the segment after `/discord/`
 * from every logged URL and error (SECRET_PATH_PREFIXES), on known and unknown routes alike, and no
 * answer ever echoes it.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import Type from 'typebox';
import { HttpError } from '@skald/service-kit';
import { CompatShapeError } from '../../domain/compat/compat-log.ts';
import type { CompatLog } from '../../domain/compat/compat-log.ts';
import { MAX_EMBEDS, discordType, parseDiscordMessage } from '../../domain/compat/discord.ts';
import { normalizeLog } from '../../domain/log-input.ts';
import { MAX_PHOTO_BYTES } from '../../domain/photo.ts';
import { INGESTION_REFUSALS } from '../admission.ts';
import { apiKeyAuth } from '../api-key-auth.ts';
import type { IngestionRouteDeps } from '../deps.ts';
import { translated } from '../field-errors.ts';
import { admitPhoto } from '../photo-admission.ts';
import { acceptCompatLogs } from './accept-logs.ts';
import { pathKey } from './compat-keys.ts';
import { acceptUpload } from './photo-accept.ts';
import { readUploadForm } from './upload-form.ts';

/** Discord's own cap per message. */
export const MAX_ATTACHMENTS = 10;
/** Discord's 25 MB message limit: a message with attachments is never larger. */
export const DISCORD_BODY_LIMIT = 25 * 1024 * 1024;

const IMAGE_NAME = /\.(png|jpe?g|webp)$/i;

interface DiscordParams {
  key: string;
  category?: string;
  token?: string;
}

/** What follows the key: a category (`/joinleave`) or a pasted Discord `{id}/{token}` pair. */
function restOf(request: FastifyRequest): string {
  const params = request.params as DiscordParams;
  return [params.category, params.token].filter((part) => part !== undefined).join('/');
}

/** Photo uploads go through the process's photo gate; a JSON message does not decode anything. */
const admitMultipart = (() => {
  const gate = admitPhoto();
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    if (request.isMultipart()) gate(request, reply, done);
    else done();
  };
})();

async function multipartMessage(deps: IngestionRouteDeps, request: FastifyRequest): Promise<void> {
  let texts: CompatLog[] | null = null;
  const skipped: string[] = [];
  let attachments = 0;
  const fields = await readUploadForm(request, async (file) => {
    attachments += 1;
    if (attachments > MAX_ATTACHMENTS) throw new HttpError(400, `Invalid field '${file.field}': at most ${MAX_ATTACHMENTS} attachments`, { extra: { field: file.field } });
    if (!IMAGE_NAME.test(file.filename)) {
      // Only pictures become photo logs; anything else (a .txt log dump) is named, not stored.
      skipped.push(file.filename);
      return;
    }
    const input = translated(() =>
      normalizeLog({ message: file.filename || 'Attachment', type: discordType(restOf(request), undefined), metadata: { attachment: file.filename } }),
    );
    await acceptUpload(deps, request, file.bytes, input);
  });
  const payload = fields['payload_json'];
  if (payload !== undefined) {
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      throw new HttpError(400, "Invalid field 'payload_json': expected the message as JSON text", { extra: { field: 'payload_json' } });
    }
    texts = translated(() => parseDiscordMessage(body, restOf(request), attachments));
  } else if (fields['content'] !== undefined) {
    texts = translated(() => parseDiscordMessage({ content: fields['content'], username: fields['username'] }, restOf(request), attachments));
  }
  if (texts === null && attachments === 0) {
    const missing = new CompatShapeError('payload_json', 'the message as JSON text, or attachments');
    throw new HttpError(400, missing.message, { extra: { field: missing.field } });
  }
  const logs = (texts ?? []).map((log) => (skipped.length > 0 ? { ...log, metadata: { ...log.metadata, skippedAttachments: skipped } } : log));
  await acceptCompatLogs(deps, request, logs);
}

export async function registerDiscordRoute(app: FastifyInstance, deps: IngestionRouteDeps): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: MAX_PHOTO_BYTES, files: MAX_ATTACHMENTS + 1, fields: 10, fieldSize: 256 * 1024, parts: 24, headerPairs: 100 },
    });
    const options = {
      bodyLimit: DISCORD_BODY_LIMIT,
      onRequest: [apiKeyAuth(scope, deps.directory, pathKey), admitMultipart],
      schema: {
        tags: ['ingestion', 'compatible'],
        summary: 'Discord-webhook-shaped URL: put /api/discord/<API key>/<category> where a script had a Discord webhook URL',
        description:
          `Each embed (up to ${MAX_EMBEDS}) is one log: title → message, description and fields → metadata, color → level; ` +
          'content alone is one log; image attachments are photo logs. Answers 204 like Discord.',
        params: Type.Object({ key: Type.String(), category: Type.Optional(Type.String()), token: Type.Optional(Type.String()) }),
        response: { 204: Type.Null({ description: 'No body' }), ...INGESTION_REFUSALS },
      },
    };
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.isMultipart()) await multipartMessage(deps, request);
      else await acceptCompatLogs(deps, request, translated(() => parseDiscordMessage(request.body, restOf(request))));
      return reply.code(204).send();
    };
    scope.post('/discord/:key', options, handler);
    scope.post('/discord/:key/:category', options, handler);
    scope.post('/discord/:key/:category/:token', options, handler);
  });
}
