/**
 * The player view (docs/PLAYERS.md): GET /players, /players/{playerId}, /players/{playerId}/logs,
 * /players/by-identifier/{identifier} for every member; DELETE /players/{playerId} for the owner only.
 * The server is the `serverId` of the query (never the path's player id).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import {
  IDENTIFIER_KINDS,
  MAX_IDENTIFIER_LENGTH,
  PLAYER_LIST_ROW_ITEMS,
  PlayerAnswerSchema,
  PlayerDetailSchema,
  PlayerErasedSchema,
  PlayerListSchema,
  PlayerLogPageSchema,
} from '@skald/contracts';
import { HttpError, requireServerRole, serverAccessOf, userIdFromRequest } from '@skald/service-kit';
import { toApiLog } from '../domain/log-view.ts';
import { erasePlayer } from '../domain/players/erase-player.ts';
import { decodeCursor, encodeCursor, playerLogPage } from '../domain/players/player-timeline.ts';
import { toPlayerDetail, toPlayerRow } from '../domain/players/player-view.ts';
import type { LogsRouteDeps } from './deps.ts';
import { MEMBER_ERRORS, OWNER_ERRORS, ServerIdQuerySchema, ServerIdSchema, serverIdOfQuery } from './route-schemas.ts';

export const PLAYER_NOT_FOUND = 'Player not found';
export const BAD_CURSOR = 'before must be the next value of a previous page';
export const BAD_IDENTIFIER = `An identifier is <kind>:<value> with kind one of ${IDENTIFIER_KINDS.join(', ')}`;

export const DEFAULT_PLAYER_PAGE_SIZE = 25;
export const MAX_PLAYER_PAGE_SIZE = 100;
export const DEFAULT_TIMELINE_PAGE_SIZE = 50;
export const MAX_TIMELINE_PAGE_SIZE = 200;

const PlayerListQuery = Type.Object(
  {
    serverId: ServerIdSchema,
    search: Type.Optional(Type.String({ maxLength: 200 })),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PLAYER_PAGE_SIZE })),
  },
  { additionalProperties: false },
);

const TimelineQuery = Type.Object(
  {
    serverId: ServerIdSchema,
    before: Type.Optional(Type.String({ maxLength: 400 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TIMELINE_PAGE_SIZE })),
    logType: Type.Optional(Type.Union([Type.Literal('text'), Type.Literal('photo')])),
  },
  { additionalProperties: false },
);

/** Player ids are digits; anything else is a player that does not exist (404), not a bad request. */
const PlayerParams = Type.Object({ playerId: Type.String({ minLength: 1, maxLength: 32 }) }, { additionalProperties: false });
const IdentifierParams = Type.Object({ identifier: Type.String({ minLength: 1, maxLength: MAX_IDENTIFIER_LENGTH }) }, { additionalProperties: false });

export async function registerPlayerRoutes(app: FastifyInstance, deps: LogsRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const member = { preHandler: [app.authenticate, requireServerRole(deps.directory, 'user', { serverIdOf: serverIdOfQuery })] };
  const owner = { preHandler: [app.authenticate, requireServerRole(deps.directory, 'owner', { serverIdOf: serverIdOfQuery })] };

  typed.get(
    '/players',
    {
      ...member,
      schema: {
        tags: ['players'],
        summary: 'Players of a server: the identifiers seen together in its logs, and their names',
        description:
          `Newest lastSeen first; total counts every match. search matches a name (contains, any case) or an identifier (exact, or its value without the kind). ` +
          `Each row carries at most ${PLAYER_LIST_ROW_ITEMS} names and identifiers (newest seen first). page starts at 1; limit at most ${MAX_PLAYER_PAGE_SIZE} (default ${DEFAULT_PLAYER_PAGE_SIZE}).`,
        querystring: PlayerListQuery,
        response: { 200: PlayerListSchema, ...MEMBER_ERRORS },
      },
    },
    async (request) => {
      const { serverId } = serverAccessOf(request);
      const limit = request.query.limit ?? DEFAULT_PLAYER_PAGE_SIZE;
      const page = request.query.page ?? 1;
      await deps.recorder.catchUp();
      const found = await deps.players.list({
        serverId,
        offset: (page - 1) * limit,
        limit,
        itemsPerRow: PLAYER_LIST_ROW_ITEMS,
        ...(request.query.search === undefined ? {} : { search: request.query.search }),
      });
      return { players: found.players.map(toPlayerRow), total: found.total };
    },
  );

  typed.get(
    '/players/by-identifier/:identifier',
    {
      ...member,
      schema: {
        tags: ['players'],
        summary: 'The player an identifier belongs to (ip and token: the player that last had it)',
        description: `404 when the identifier was never seen on the server. ${BAD_IDENTIFIER} (400 otherwise).`,
        params: IdentifierParams,
        querystring: ServerIdQuerySchema,
        response: { 200: PlayerDetailSchema, ...MEMBER_ERRORS },
      },
    },
    async (request) => {
      const { serverId } = serverAccessOf(request);
      const identifier = request.params.identifier;
      const colon = identifier.indexOf(':');
      if (colon <= 0 || colon === identifier.length - 1 || !(IDENTIFIER_KINDS as readonly string[]).includes(identifier.slice(0, colon).toLowerCase())) {
        throw new HttpError(400, BAD_IDENTIFIER);
      }
      await deps.recorder.catchUp();
      const player = await deps.players.byIdentifier(serverId, identifier);
      if (player === null) throw new HttpError(404, PLAYER_NOT_FOUND);
      return toPlayerDetail(player);
    },
  );

  typed.get(
    '/players/:playerId',
    {
      ...member,
      schema: {
        tags: ['players'],
        summary: 'A player with every name and identifier seen, each with its first and last log time',
        description:
          'A player merged into an older one (a log showed them to be one) answers 200 { mergedInto: <surviving id> }: ask again with that id. ' +
          'The survivor is always the final one (merges chain). 404 for an id unknown to the server, erased, or gone with its logs.',
        params: PlayerParams,
        querystring: ServerIdQuerySchema,
        response: { 200: PlayerAnswerSchema, ...MEMBER_ERRORS },
      },
    },
    async (request) => {
      const { serverId } = serverAccessOf(request);
      await deps.recorder.catchUp();
      const found = await deps.players.get(serverId, request.params.playerId);
      if (found === null) throw new HttpError(404, PLAYER_NOT_FOUND);
      return 'mergedInto' in found ? { mergedInto: found.mergedInto } : toPlayerDetail(found.player);
    },
  );

  typed.get(
    '/players/:playerId/logs',
    {
      ...member,
      schema: {
        tags: ['players'],
        summary: "The logs that mention a player, newest first (text and photo logs together unless logType says one)",
        description:
          `Ordered by the log's time, then id. Keyset paging: pass next as before for the following page (next is null on the last). ` +
          `limit at most ${MAX_TIMELINE_PAGE_SIZE} (default ${DEFAULT_TIMELINE_PAGE_SIZE}). Photo logs carry signed image paths as in /photologs/my. A merged id answers its survivor's logs.`,
        params: PlayerParams,
        querystring: TimelineQuery,
        response: { 200: PlayerLogPageSchema, ...MEMBER_ERRORS },
      },
    },
    async (request) => {
      const { serverId } = serverAccessOf(request);
      const { playerId } = request.params;
      let before;
      if (request.query.before !== undefined && request.query.before !== '') {
        before = decodeCursor(request.query.before);
        if (before === null) throw new HttpError(400, BAD_CURSOR);
      }
      await deps.recorder.catchUp();
      if ((await deps.players.get(serverId, playerId)) === null) throw new HttpError(404, PLAYER_NOT_FOUND);
      const page = await playerLogPage(deps, {
        serverId,
        playerId,
        limit: request.query.limit ?? DEFAULT_TIMELINE_PAGE_SIZE,
        ...(before === undefined ? {} : { before }),
        ...(request.query.logType === undefined ? {} : { logType: request.query.logType }),
      });
      const now = deps.now();
      return { logs: page.logs.map((record) => toApiLog(record, deps.signer, now)), next: page.next === null ? null : encodeCursor(page.next) };
    },
  );

  typed.delete(
    '/players/:playerId',
    {
      ...owner,
      schema: {
        tags: ['players'],
        summary: "Erase a player: every log and photo log mentioning one of its identifiers, and the player (owner only)",
        description:
          "For a player's right to erasure. Photo logs lose their images too; the other players those logs name lose them as well. " +
          'A merged id erases its survivor. Audited as player.erased with the count.',
        params: PlayerParams,
        querystring: ServerIdQuerySchema,
        response: { 200: PlayerErasedSchema, ...OWNER_ERRORS },
      },
    },
    async (request) => {
      const { serverId } = serverAccessOf(request);
      const { playerId } = request.params;
      // Every log stored so far recorded first: erasure must find them all.
      await deps.recorder.catchUp();
      const found = await deps.players.get(serverId, playerId);
      if (found === null) throw new HttpError(404, PLAYER_NOT_FOUND);
      const erasedId = 'mergedInto' in found ? found.mergedInto : found.player.id;
      const erased = await erasePlayer(deps, serverId, erasedId);
      if (erased > 0) await deps.counts.mark(serverId);
      await deps.audit.publish({ actorId: userIdFromRequest(request) ?? '', serverId, action: 'player.erased', details: { playerId: erasedId, erasedCount: erased } });
      return { erased };
    },
  );
}
