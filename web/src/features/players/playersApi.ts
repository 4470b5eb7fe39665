import type { PlayerAnswer, PlayerDetail, PlayerErased, PlayerList, PlayerLogPage } from '@skald/contracts/api';
import { apiSlice } from '../../app/api.ts';
import { cleanLogEntry } from '../logs/plainText.ts';

/** Players per page of /players. */
export const PLAYER_PAGE_SIZE = 25;
/** Logs per page of a player's timeline ('Load older logs' asks for the next). */
export const TIMELINE_PAGE_SIZE = 25;

export type TimelineKind = 'all' | 'text' | 'photo';

export interface PlayerListQuery {
  serverId: string;
  search: string;
  page: number;
}

export interface PlayerQuery {
  serverId: string;
  playerId: string;
}

export interface TimelineQuery extends PlayerQuery {
  kind: TimelineKind;
}

/** The query string of GET /players: an empty search is no search. */
export function playerListParams({ serverId, search, page }: PlayerListQuery): Record<string, string> {
  const params: Record<string, string> = { serverId, page: String(page), limit: String(PLAYER_PAGE_SIZE) };
  const trimmed = search.trim();
  if (trimmed !== '') params['search'] = trimmed;
  return params;
}

const path = (playerId: string) => `/players/${encodeURIComponent(playerId)}`;

// Erasing a player deletes logs and photo logs: every screen counting or listing them asks again.
export const playersApi = apiSlice.enhanceEndpoints({ addTagTypes: ['Players'] }).injectEndpoints({
  endpoints: (build) => ({
    players: build.query<PlayerList, PlayerListQuery>({
      query: (arg) => ({ url: '/players', params: playerListParams(arg) }),
      providesTags: ['Players'],
    }),
    player: build.query<PlayerAnswer, PlayerQuery>({
      query: ({ serverId, playerId }) => ({ url: path(playerId), params: { serverId } }),
      providesTags: ['Players'],
    }),
    playerByIdentifier: build.query<PlayerDetail, { serverId: string; identifier: string }>({
      query: ({ serverId, identifier }) => ({ url: `/players/by-identifier/${encodeURIComponent(identifier)}`, params: { serverId } }),
      providesTags: ['Players'],
    }),
    // Keyset paged: each page's `next` is the following page's `before`; null ends the timeline.
    playerTimeline: build.infiniteQuery<PlayerLogPage, TimelineQuery, string | null>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (last) => last.next,
      },
      query: ({ queryArg: { serverId, playerId, kind }, pageParam }) => {
        const params: Record<string, string> = { serverId, limit: String(TIMELINE_PAGE_SIZE) };
        if (pageParam !== null) params['before'] = pageParam;
        if (kind !== 'all') params['logType'] = kind;
        return { url: `${path(playerId)}/logs`, params };
      },
      transformResponse: (body: PlayerLogPage) => ({ ...body, logs: body.logs.map(cleanLogEntry) }),
      providesTags: ['Players'],
    }),
    erasePlayer: build.mutation<PlayerErased, PlayerQuery>({
      query: ({ serverId, playerId }) => ({ url: path(playerId), method: 'DELETE', params: { serverId } }),
      invalidatesTags: ['Players', 'Logs', 'PhotoLogs', 'Stats'],
    }),
  }),
});

export const { usePlayersQuery, usePlayerQuery, usePlayerByIdentifierQuery, usePlayerTimelineInfiniteQuery, useErasePlayerMutation } = playersApi;

/** What the owner types to confirm an erasure (docs/PLAYERS.md, "Web"). */
export const ERASE_CONFIRMATION = 'ERASE';

export const PLAYERS_TEXT = {
  loading: 'Loading players...',
  loadFailed: 'Failed to load players. Check your server or connection.',
  none: 'No players yet. Players appear when logs carry identifiers such as license:… or discord:….',
  noMatch: 'No players match this search.',
  loadingPlayer: 'Loading player...',
  notFound: 'Player not found',
  playerFailed: 'Failed to load the player.',
  loadingTimeline: 'Loading logs...',
  timelineFailed: "Failed to load the player's logs.",
  timelineEmpty: 'No stored logs mention this player.',
  unnamed: 'Unnamed player',
  eraseFailed: 'Failed to erase the player.',
  resolving: 'Finding the player...',
} as const;

/** The toast after an erasure, with the server's count. */
export function erasedText(erased: number): string {
  return `Player erased: ${erased} ${erased === 1 ? 'log' : 'logs'} deleted.`;
}

/**
 * The address that opens the player an identifier belongs to on a server (resolved by the Players screen).
 * It names the server, so a copied link opens the same player (the shell selects a server a link names
 * when the user is a member of it).
 */
export function identifierHref(identifier: string, serverId: string | null): string {
  return `/players?${new URLSearchParams(serverId === null ? { identifier } : { serverId, identifier }).toString()}`;
}

/** A player's page. */
export function playerHref(playerId: string): string {
  return `/players/${encodeURIComponent(playerId)}`;
}
