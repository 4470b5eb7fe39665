import type { ApiLog, LevelColor } from '@skald/contracts/api';
import { resolveApiUrl } from '../../app/api.ts';
import { LogBody } from './LogBody.tsx';

export function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

interface Props {
  log: ApiLog;
  color: LevelColor | undefined;
  highlight?: string | undefined;
  /** A photo log's thumbnail opens the photo viewer through this; without it, it links to the image. */
  onOpenPhoto?: (() => void) | undefined;
  /** The server the Context action asks; without it the card has no Context action. */
  serverId?: string | undefined;
  /** The log a `?log=` view is about: marked, and scrolled into view. */
  focused?: boolean | undefined;
}

/** A photo log's thumbnail (the image when it has none); a text log has neither. */
function PhotoThumbnail({ log, onOpen }: { log: ApiLog; onOpen: (() => void) | undefined }) {
  const thumb = log.thumb_path ?? log.image_path;
  if (log.log_type !== 'photo' || !thumb) return null;
  const image = <img src={resolveApiUrl(thumb)} alt={log.message} loading="lazy" />;
  return onOpen ? (
    <button type="button" className="photo-frame log-card-photo" onClick={onOpen} aria-label={`Open photo: ${log.message}`}>
      {image}
    </button>
  ) : (
    <a className="photo-frame log-card-photo" href={resolveApiUrl(log.image_path ?? thumb)} target="_blank" rel="noreferrer" aria-label={`Open photo: ${log.message}`}>
      {image}
    </a>
  );
}

function scrollIntoView(card: HTMLElement | null): void {
  card?.scrollIntoView({ block: 'center' });
}

/** One log, coloured by its level (neutral until the colours load): time, LEVEL, message, '[Type: x] via resource', a photo log's thumbnail, metadata. */
export function LogCard({ log, color, highlight, onOpenPhoto, serverId, focused = false }: Props) {
  return (
    <article
      className={focused ? 'log-card log-card-focused' : 'log-card'}
      style={color && { background: color.bg_color, color: color.text_color }}
      aria-current={focused || undefined}
      ref={focused ? scrollIntoView : undefined}
      data-testid="log-card"
    >
      <header className="log-card-head">
        <time dateTime={log.created_at}>{formatTime(log.created_at)}</time>
        <strong className="log-level">{log.level.toUpperCase()}</strong>
      </header>
      <LogBody log={log} highlight={highlight} serverId={serverId} photo={<PhotoThumbnail log={log} onOpen={onOpenPhoto} />} />
    </article>
  );
}
