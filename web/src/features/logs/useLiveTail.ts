import type { ApiLog } from '@skald/contracts/api';
import { useEffect, useRef, useState } from 'react';
import { useStore } from 'react-redux';
import { currentToken } from '../../app/tokenRenewal.ts';
import { openLiveTail, type LiveStatus } from './liveTail.ts';
import { filterParams, type LogFilters } from './logFilters.ts';
import { cleanLogEntry } from './plainText.ts';

/** The live list keeps the newest this many logs (older ones are on the paged list). */
export const LIVE_MAX_LOGS = 500;

export interface LiveTailState {
  /** Newest first. */
  readonly logs: ApiLog[];
  readonly status: LiveStatus;
  /** The server's words about the last refusal or ending, if any. */
  readonly message: string | null;
  /** Logs that arrived while paused, shown on resume. */
  readonly waiting: number;
}

/**
 * The live tail of the current server while `enabled`: new logs on top, held back while `paused` and
 * shown on resume; a filter change starts a fresh tail (and list).
 */
export function useLiveTail(
  serverId: string | null,
  filters: LogFilters,
  { enabled, paused }: { enabled: boolean; paused: boolean },
): LiveTailState {
  const store = useStore();
  const [logs, setLogs] = useState<ApiLog[]>([]);
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const [message, setMessage] = useState<string | null>(null);
  const [waiting, setWaiting] = useState(0);
  const held = useRef<ApiLog[]>([]);
  const pausedRef = useRef(paused);
  const key = JSON.stringify(filters);

  useEffect(() => {
    pausedRef.current = paused;
    if (!paused && held.current.length > 0) {
      const arrived = held.current;
      held.current = [];
      setWaiting(0);
      setLogs((shown) => [...arrived.reverse(), ...shown].slice(0, LIVE_MAX_LOGS));
    }
  }, [paused]);

  useEffect(() => {
    if (!enabled || !serverId) return undefined;
    setLogs([]);
    setMessage(null);
    held.current = [];
    setWaiting(0);
    const close = openLiveTail({
      params: filterParams(serverId, JSON.parse(key) as LogFilters),
      token: () => currentToken(store),
      handlers: {
        onLog(log) {
          const clean = cleanLogEntry(log);
          if (pausedRef.current) {
            held.current = [...held.current, clean].slice(-LIVE_MAX_LOGS);
            setWaiting(held.current.length);
          } else setLogs((shown) => [clean, ...shown].slice(0, LIVE_MAX_LOGS));
        },
        onStatus(next, said) {
          setStatus(next);
          if (said !== null || next === 'live') setMessage(said);
        },
      },
    });
    return close;
    // `key` stands for the filters (a new object each render).
  }, [enabled, serverId, key, store]);

  return { logs, status, message, waiting };
}
