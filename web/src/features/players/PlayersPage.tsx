import type { PlayerRow } from '@skald/contracts/api';
import { Alert, Empty, Input, Space, Spin, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { statusOf } from '../../app/errors.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { useMeQuery } from '../auth/authApi.ts';
import { Highlight } from '../common/Highlight.tsx';
import { Pager } from '../common/Pager.tsx';
import { useDebounced } from '../common/useDebounced.ts';
import { formatTime } from '../logs/LogCard.tsx';
import { totalPages } from '../logs/logsApi.ts';
import { PageTitle } from '../shell/PageTitle.tsx';
import { PLAYER_PAGE_SIZE, PLAYERS_TEXT, playerHref, usePlayerByIdentifierQuery, usePlayersQuery } from './playersApi.ts';

const SEARCH_SETTLE_MS = 300;

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

function PlayerListRow({ player, search }: { player: PlayerRow; search: string }) {
  const aliases = player.names.filter((name) => name !== player.name);
  return (
    <li className="player-row" data-testid="player-row">
      <div className="player-row-head">
        <Link to={playerHref(player.id)} className="player-row-name">
          <Highlight text={player.name ?? PLAYERS_TEXT.unnamed} term={search} />
        </Link>
        <span className="player-row-counts">
          {plural(player.logCount, 'log', 'logs')} · {plural(player.photoCount, 'photo log', 'photo logs')}
        </span>
      </div>
      {aliases.length > 0 && (
        <p className="player-row-aliases">
          Also seen as: <Highlight text={aliases.join(', ')} term={search} />
        </p>
      )}
      <ul className="identifier-chips" aria-label="Identifiers">
        {player.identifiers.map((identifier) => (
          <li key={identifier}>
            <code>
              <Highlight text={identifier} term={search} />
            </code>
          </li>
        ))}
      </ul>
      <p className="player-row-seen">
        Last seen <time dateTime={player.lastSeen}>{formatTime(player.lastSeen)}</time> · First seen <time dateTime={player.firstSeen}>{formatTime(player.firstSeen)}</time>
      </p>
    </li>
  );
}

/** The search box and the list, newest lastSeen first; the search and page live in the address. */
function PlayerList({ serverId, serverName }: { serverId: string; serverName: string | null }) {
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const page = Math.max(1, Math.floor(Number(params.get('page'))) || 1);
  const [input, setInput] = useState(search);
  const settled = useDebounced(input.trim(), SEARCH_SETTLE_MS);
  const lastSettled = useRef(settled);
  const written = useRef(search);
  // A search that settles goes to the address and starts at page 1; replaced, so Back leaves the screen
  // instead of undoing letters.
  useEffect(() => {
    if (settled === lastSettled.current) return;
    lastSettled.current = settled;
    if (settled === search) return;
    written.current = settled;
    setParams(settled === '' ? {} : { search: settled }, { replace: true });
  }, [settled, search, setParams]);
  // The address changed from elsewhere (the sidebar's Players, Back): the box shows its search.
  useEffect(() => {
    if (search === written.current) return;
    written.current = search;
    setInput(search);
  }, [search]);
  const { data, isError, isFetching } = usePlayersQuery({ serverId, search, page }, { refetchOnMountOrArgChange: true });
  const setPage = (next: number) => setParams(search === '' ? { page: String(next) } : { search, page: String(next) });

  const pages = totalPages(data?.total ?? 0, PLAYER_PAGE_SIZE);
  return (
    <div className="page">
      <div className="page-header">
        <PageTitle>Players – {serverName}</PageTitle>
        <Typography.Text type="secondary">The game identifiers seen together in this server's logs, with the names seen beside them.</Typography.Text>
      </div>
      <div className="player-search">
        <label className="field-label" htmlFor="player-search">
          Search players
        </label>
        <Input
          id="player-search"
          type="search"
          allowClear
          value={input}
          onChange={(e) => setInput(e.target.value)}
          placeholder="A name, or an identifier such as license:… or its value"
          maxLength={200}
        />
      </div>
      {isError ? (
        <Alert type="error" title={PLAYERS_TEXT.loadFailed} showIcon />
      ) : !data ? (
        <Space>
          <Spin /> <span>{PLAYERS_TEXT.loading}</span>
        </Space>
      ) : data.players.length === 0 ? (
        <Empty description={search === '' ? PLAYERS_TEXT.none : PLAYERS_TEXT.noMatch} />
      ) : (
        <>
          <Typography.Paragraph className="count-line" aria-live="polite" aria-busy={isFetching}>
            {search === '' ? plural(data.total, 'player', 'players') : `${plural(data.total, 'player', 'players')} match “${search}”`}
          </Typography.Paragraph>
          <ul className="player-list">
            {data.players.map((player) => (
              <PlayerListRow key={player.id} player={player} search={search} />
            ))}
          </ul>
          {pages > 1 && <Pager page={page} pages={pages} onPage={setPage} />}
        </>
      )}
    </div>
  );
}

/**
 * /players?identifier=<kind:value>: where an identifier in a log links (LogMetadata). Asks which player
 * has it and goes there, or says no player of this server has it.
 */
function IdentifierResolver({ serverId, identifier, linkedServerId }: { serverId: string; identifier: string; linkedServerId: string | null }) {
  const me = useMeQuery(undefined);
  // A link naming another server the user is a member of: the shell selects it; ask once it has.
  const switching = linkedServerId !== null && linkedServerId !== serverId && (me.data ? me.data.servers.some((server) => server.id === linkedServerId) : !me.isError);
  const { currentData: data, error, isError } = usePlayerByIdentifierQuery({ serverId, identifier }, { skip: switching });
  if (data) return <Navigate to={playerHref(data.id)} replace />;
  const status = statusOf(error);
  return (
    <div className="page">
      {isError ? (
        <>
          <PageTitle>{status === 404 || status === 400 ? PLAYERS_TEXT.notFound : 'Players'}</PageTitle>
          {status === 404 || status === 400 ? (
            <Empty description={<>No player of this server has the identifier <code className="identifier-text">{identifier}</code>.</>} />
          ) : (
            <Alert type="error" title={PLAYERS_TEXT.playerFailed} showIcon />
          )}
          <Link to="/players">All players</Link>
        </>
      ) : (
        <>
          <PageTitle>Players</PageTitle>
          <Space>
            <Spin /> <span>{PLAYERS_TEXT.resolving}</span>
          </Space>
        </>
      )}
    </div>
  );
}

export default function PlayersPage() {
  const { serverId, serverName } = useAppSelector((s) => s.session);
  const [params] = useSearchParams();
  const identifier = params.get('identifier');
  if (!serverId) {
    return (
      <div className="page">
        <PageTitle>Players</PageTitle>
        <Empty description="Select a server to view its players." />
      </div>
    );
  }
  if (identifier !== null && identifier !== '') return <IdentifierResolver key={identifier} serverId={serverId} identifier={identifier} linkedServerId={params.get('serverId')} />;
  return <PlayerList serverId={serverId} serverName={serverName} />;
}
