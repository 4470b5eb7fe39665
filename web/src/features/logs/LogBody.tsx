import type { ApiLog } from '@skald/contracts/api';
import type { ReactNode } from 'react';
import { AddToCaseButton } from '../cases/AddToCaseButton.tsx';
import { Highlight } from '../common/Highlight.tsx';
import { ContextButton } from './LogContext.tsx';
import { LogMetadata } from './LogMetadata.tsx';

interface Props {
  log: ApiLog;
  highlight?: string | undefined;
  /** The server the actions ask; without it there are no actions. */
  serverId?: string | undefined;
  /** Shown between the origin line and the metadata (a log card's photo thumbnail). */
  photo?: ReactNode;
  /** The metadata open from the start (an opened table row), not only when a search hit is in it. */
  metadataOpen?: boolean;
}

/**
 * What a log says below its time and level, the same in a log card and in a table row opened: the message
 * with the search term marked, '[Type: x] via resource', the metadata, and the Context and Add to case actions.
 */
export function LogBody({ log, highlight, serverId, photo, metadataOpen = false }: Props) {
  return (
    <>
      <p className="log-message">
        <Highlight text={log.message} term={highlight} />
      </p>
      <p className="log-origin">
        [Type: {log.type}] via {log.resource}
      </p>
      {photo}
      <LogMetadata metadata={log.metadata} highlight={highlight} open={metadataOpen} />
      {serverId && (
        <div className="log-actions">
          <ContextButton serverId={serverId} log={log} />
          <AddToCaseButton serverId={serverId} log={log} />
        </div>
      )}
    </>
  );
}
