import type { ApiLog, LevelColor } from '@skald/contracts/api';
import { Highlight } from '../common/Highlight.tsx';
import { LogMetadata } from './LogMetadata.tsx';

export function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** One log, coloured by its level (neutral until the colours load): time, LEVEL, message, '[Type: x] via resource', metadata. */
export function LogCard({ log, color, highlight }: { log: ApiLog; color: LevelColor | undefined; highlight?: string | undefined }) {
  return (
    <article className="log-card" style={color && { background: color.bg_color, color: color.text_color }} data-testid="log-card">
      <header className="log-card-head">
        <time dateTime={log.created_at}>{formatTime(log.created_at)}</time>
        <strong className="log-level">{log.level.toUpperCase()}</strong>
      </header>
      <p className="log-message">
        <Highlight text={log.message} term={highlight} />
      </p>
      <p className="log-origin">
        [Type: {log.type}] via {log.resource}
      </p>
      <LogMetadata metadata={log.metadata} highlight={highlight} />
    </article>
  );
}
