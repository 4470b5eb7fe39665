import { Fragment } from 'react';
import { Link } from 'react-router';
import { useAppSelector } from '../../app/hooks.ts';
import { hitRanges, markRanges } from '../common/Highlight.tsx';
import { identifierHref } from '../players/playersApi.ts';
import { metadataPieces } from './metadataText.ts';

// Collapsible 'View metadata' with formatted JSON, only when metadata is not empty (docs/spec/part-1.txt section 2).
// A search hit inside it opens it, marked. Identifiers and player names in it link to their player.
export function hasMetadata(metadata: unknown): metadata is Record<string, unknown> {
  return typeof metadata === 'object' && metadata !== null && Object.keys(metadata).length > 0;
}

export function LogMetadata({ metadata, highlight, open = false }: { metadata: unknown; highlight?: string | undefined; open?: boolean }) {
  const serverId = useAppSelector((s) => s.session.serverId);
  if (!hasMetadata(metadata)) return null;
  const pieces = metadataPieces(metadata);
  const text = pieces.map((piece) => piece.text).join('');
  const ranges = highlight === undefined ? [] : hitRanges(text, highlight);
  let offset = 0;
  return (
    <details className="metadata" open={open || ranges.length > 0 || undefined}>
      <summary>View metadata</summary>
      <pre>
        {pieces.map((piece) => {
          const at = offset;
          offset += piece.text.length;
          const content = markRanges(piece.text, ranges, at);
          return piece.player === undefined ? (
            <Fragment key={at}>{content}</Fragment>
          ) : (
            <Link key={at} to={identifierHref(piece.player, serverId)} className="player-link" title="Open this player">
              {content}
            </Link>
          );
        })}
      </pre>
    </details>
  );
}
