import type { PlayerDetail } from '@skald/contracts/api';
import { Alert, Empty, Space, Spin } from 'antd';
import type { ReactNode } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { statusOf } from '../../app/errors.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { useMeQuery } from '../auth/authApi.ts';
import { Panel } from '../common/Panel.tsx';
import { formatTime } from '../logs/LogCard.tsx';
import { PageTitle } from '../shell/PageTitle.tsx';
import { ErasePlayerSection } from './ErasePlayerSection.tsx';
import { PlayerTimeline } from './PlayerTimeline.tsx';
import { PLAYERS_TEXT, playerHref, usePlayerQuery } from './playersApi.ts';

function Seen({ firstSeen, lastSeen }: { firstSeen: string; lastSeen: string }) {
  return (
    <span className="seen-times">
      First seen <time dateTime={firstSeen}>{formatTime(firstSeen)}</time> · Last seen <time dateTime={lastSeen}>{formatTime(lastSeen)}</time>
    </span>
  );
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** Names and identifiers, each with the first and last log time it was seen at, newest first. */
function PlayerFacts({ player }: { player: PlayerDetail }) {
  return (
    <div className="player-facts">
      <Panel>
        <section aria-labelledby="names-heading">
          <h2 id="names-heading" className="section-title">
            Names
          </h2>
          {player.names.length === 0 ? (
            <p className="muted-line">No log named this player.</p>
          ) : (
            <ul className="seen-list" data-testid="player-names">
              {player.names.map((seen) => (
                <li key={seen.name}>
                  <span className="seen-value">{seen.name}</span>
                  <Seen firstSeen={seen.firstSeen} lastSeen={seen.lastSeen} />
                </li>
              ))}
            </ul>
          )}
        </section>
      </Panel>
      <Panel>
        <section aria-labelledby="identifiers-heading">
          <h2 id="identifiers-heading" className="section-title">
            Identifiers
          </h2>
          <p className="muted-line">Linked accounts: every identifier seen together with this player&apos;s in a log.</p>
          <ul className="seen-list" data-testid="player-identifiers">
            {player.identifiers.map((seen) => (
              <li key={seen.identifier}>
                <code className="seen-value identifier-text">{seen.identifier}</code>
                <Seen firstSeen={seen.firstSeen} lastSeen={seen.lastSeen} />
              </li>
            ))}
          </ul>
        </section>
      </Panel>
    </div>
  );
}

function Shell({ children }: { children: ReactNode }) {
  return (
    <div className="page">
      <Link to="/players" className="back-link">
        ← All players
      </Link>
      {children}
    </div>
  );
}

/**
 * /players/{id}: the player's names and identifiers with first and last seen, the timeline of its text and
 * photo logs, and for the owner, erasure. A merged id goes on to the player it joined.
 */
export default function PlayerPage() {
  const { playerId = '' } = useParams();
  const serverId = useAppSelector((s) => s.session.serverId);
  const answer = usePlayerQuery({ serverId: serverId ?? '', playerId }, { skip: !serverId, refetchOnMountOrArgChange: true });
  const me = useMeQuery(undefined);

  if (!serverId) {
    return (
      <Shell>
        <PageTitle>Player</PageTitle>
        <Empty description="Select a server to view its players." />
      </Shell>
    );
  }
  // currentData: the answer for this id only, never the previous page's player while this one loads.
  const found = answer.currentData;
  if (found && 'mergedInto' in found) return <Navigate to={playerHref(found.mergedInto)} replace />;
  if (answer.isError) {
    const notFound = statusOf(answer.error) === 404;
    return (
      <Shell>
        <PageTitle>{notFound ? PLAYERS_TEXT.notFound : 'Player'}</PageTitle>
        {notFound ? <Empty description="No player of this server has this id: it may have been erased, or its logs have expired." /> : <Alert type="error" title={PLAYERS_TEXT.playerFailed} showIcon />}
      </Shell>
    );
  }
  if (!found) {
    return (
      <Shell>
        <PageTitle>Player</PageTitle>
        <Space>
          <Spin /> <span>{PLAYERS_TEXT.loadingPlayer}</span>
        </Space>
      </Shell>
    );
  }
  const player = found;
  const isOwner = me.data?.servers.find((server) => server.id === serverId)?.role === 'owner';
  return (
    <Shell>
      <div className="page-header">
        <PageTitle>{player.name ?? PLAYERS_TEXT.unnamed}</PageTitle>
        <p className="player-summary">
          <Seen firstSeen={player.firstSeen} lastSeen={player.lastSeen} /> · {plural(player.logCount, 'log', 'logs')} · {plural(player.photoCount, 'photo log', 'photo logs')}
        </p>
      </div>
      <PlayerFacts player={player} />
      <PlayerTimeline key={player.id} serverId={serverId} playerId={player.id} />
      {isOwner && <ErasePlayerSection serverId={serverId} player={player} />}
    </Shell>
  );
}
