import { CaretRightOutlined, PauseOutlined } from '@ant-design/icons';
import { Button, Switch } from 'antd';
import type { LiveTailState } from './useLiveTail.ts';

interface Props {
  live: boolean;
  onLive(next: boolean): void;
  paused: boolean;
  onPaused(next: boolean): void;
  tail: LiveTailState;
}

/** What the tail is doing, in words (a polite live region announces changes, not each log). */
export function liveStatusText(tail: LiveTailState, paused: boolean): string {
  if (tail.status === 'disconnected') return `Disconnected. Reconnecting…${tail.message ? ` ${tail.message}` : ''}`;
  if (tail.status === 'connecting') return 'Connecting…';
  if (paused) return `Paused: ${tail.waiting} new ${tail.waiting === 1 ? 'log' : 'logs'} waiting.`;
  return 'Live: new logs appear at the top as they arrive.';
}

/** The /logs screen's Live toggle: on, the list follows the live tail; pause holds new logs back. */
export function LiveBar({ live, onLive, paused, onPaused, tail }: Props) {
  return (
    <div className="live-bar">
      <span className="live-toggle">
        <Switch id="live-toggle" checked={live} onChange={onLive} size="small" />
        <label htmlFor="live-toggle">Live</label>
      </span>
      {live && (
        <>
          <Button size="small" icon={paused ? <CaretRightOutlined /> : <PauseOutlined />} onClick={() => onPaused(!paused)}>
            {paused ? 'Resume' : 'Pause'}
          </Button>
          <span role="status" className={`live-status live-status-${tail.status}`} data-testid="live-status">
            {liveStatusText(tail, paused)}
          </span>
        </>
      )}
    </div>
  );
}
