import { CaretDownOutlined, CaretRightOutlined } from '@ant-design/icons';
import type { ApiLog, LevelColors } from '@skald/contracts/api';
import { Fragment, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Highlight } from '../common/Highlight.tsx';
import { LogBody } from './LogBody.tsx';
import { formatTime } from './LogCard.tsx';
import { colorForLevel } from './logsApi.ts';

interface Props {
  logs: readonly ApiLog[];
  colors: LevelColors | undefined;
  highlight?: string | undefined;
  /** The server the Context action asks; without it a row has no Context action. */
  serverId?: string | undefined;
  /** A log to mark and scroll into view (the `?log=` view). */
  focusId?: string | undefined;
}

/** The table's columns; on a phone the type and resource columns are hidden (styles.css). */
const COLUMNS = [
  { label: 'Time', className: 'log-col-time' },
  { label: 'Level', className: 'log-col-level' },
  { label: 'Type', className: 'log-col-type' },
  { label: 'Resource', className: 'log-col-resource' },
  { label: 'Message', className: undefined },
] as const;

/** The next row index for a key of the table's own keys, or null for any other key. */
export function rowStep(key: string, index: number, count: number): number | null {
  if (key === 'j' || key === 'ArrowDown') return Math.min(index + 1, count - 1);
  if (key === 'k' || key === 'ArrowUp') return Math.max(index - 1, 0);
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}

/** Whether a key press belongs to something a person types in (a field keeps its j and k). */
function typingTarget(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

/**
 * The dense view of /logs: one line per log (time, level, type, resource, message), its metadata and the
 * Context action on expand. One row takes the focus at a time (roving tabindex): j/k or the arrows move it,
 * Enter or Space expands; j or k pressed with nothing focused starts at the current row.
 */
export function LogTable({ logs, colors, highlight, serverId, focusId }: Props) {
  const focusIndex = focusId === undefined ? -1 : logs.findIndex((log) => log.id === focusId);
  const [active, setActive] = useState(Math.max(focusIndex, 0));
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const rows = useRef<(HTMLTableRowElement | null)[]>([]);
  const current = Math.min(active, Math.max(logs.length - 1, 0));

  useEffect(() => {
    if (focusIndex >= 0) rows.current[focusIndex]?.scrollIntoView({ block: 'center' });
  }, [focusIndex]);

  // j/k from the page itself (nothing focused) enter the table at its current row.
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key !== 'j' && event.key !== 'k') return;
      if (event.target !== document.body && event.target !== document.documentElement) return;
      event.preventDefault();
      rows.current[current]?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [current]);

  const toggle = (id: string) =>
    setExpanded((shown) => {
      const next = new Set(shown);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const onRowKey = (event: KeyboardEvent<HTMLTableRowElement>, index: number, id: string) => {
    if (event.target !== event.currentTarget || typingTarget(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      toggle(id);
      return;
    }
    const to = rowStep(event.key, index, logs.length);
    if (to === null) return;
    event.preventDefault();
    setActive(to);
    rows.current[to]?.focus();
  };

  return (
    <div className="log-table-wrap">
      <table className="log-table" aria-label="Logs" data-testid="log-table">
        <thead>
          <tr>
            {COLUMNS.map(({ label, className }) => (
              <th scope="col" className={className} key={label}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {logs.map((log, index) => {
            const color = colorForLevel(log.level, colors);
            const open = expanded.has(log.id);
            const focused = log.id === focusId;
            return (
              <Fragment key={log.id}>
                <tr
                  ref={(row) => {
                    rows.current[index] = row;
                  }}
                  className={`log-row${focused ? ' log-row-focused' : ''}${open ? ' log-row-open' : ''}`}
                  tabIndex={index === current ? 0 : -1}
                  aria-current={focused || undefined}
                  onFocus={() => setActive(index)}
                  onClick={() => {
                    setActive(index);
                    toggle(log.id);
                  }}
                  onKeyDown={(event) => onRowKey(event, index, log.id)}
                  data-testid="log-row"
                >
                  <td className="log-col-time">
                    {/* The row's state for screen readers (a table row cannot carry aria-expanded); the row takes the keys. */}
                    <button type="button" className="log-row-toggle" tabIndex={-1} aria-expanded={open} aria-label={open ? 'Hide details' : 'Show details'}>
                      {open ? <CaretDownOutlined /> : <CaretRightOutlined />}
                    </button>
                    <time dateTime={log.created_at}>{formatTime(log.created_at)}</time>
                  </td>
                  <td className="log-col-level">
                    <span className="log-table-level" style={color && { background: color.bg_color, color: color.text_color }}>
                      {log.level.toUpperCase()}
                    </span>
                  </td>
                  <td className="log-col-type">{log.type}</td>
                  <td className="log-col-resource">{log.resource}</td>
                  <td className="log-col-message">
                    {log.log_type === 'photo' ? '[Photo] ' : ''}
                    <Highlight text={log.message} term={highlight} />
                  </td>
                </tr>
                {open && (
                  <tr className="log-row-detail">
                    <td colSpan={5}>
                      <LogBody log={log} highlight={highlight} serverId={serverId} metadataOpen />
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
