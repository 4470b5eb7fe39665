/**
 * The live tail's connection (GET /logs/tail), without React: fetch with the bearer token and
 * the filters, frames parsed as they arrive, and reconnection by itself with Last-Event-ID (the last log
 * id received) after any drop, refusal or `end` event, waiting longer after each failure (1 s doubling
 * to 30 s, or the server's Retry-After) and starting over once the stream is live again.
 */
import type { ApiLog, LogTailEnd, LogTailSkipped } from '@skald/contracts/api';
import { API_BASE } from '../../app/apiBase.ts';
import { SseParser } from './sseParser.ts';

export type LiveStatus = 'connecting' | 'live' | 'disconnected';

export interface LiveTailHandlers {
  onLog(log: ApiLog): void;
  /** The connection's state, and the server's words about it when it gave any (a limit, an `end` reason). */
  onStatus(status: LiveStatus, message: string | null): void;
  onSkipped?(skipped: LogTailSkipped): void;
}

export interface LiveTailOptions {
  readonly params: Readonly<Record<string, string>>;
  /** Read at each connection, so a renewed token is used. */
  readonly token: () => string | null;
  readonly handlers: LiveTailHandlers;
  /** Reconnection waits (tests shorten them). */
  readonly backoff?: { readonly firstMs: number; readonly maxMs: number };
}

const DEFAULT_BACKOFF = { firstMs: 1_000, maxMs: 30_000 };

async function refusalMessage(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { error?: unknown };
    if (typeof body.error === 'string' && body.error !== '') return body.error;
  } catch {
    // Not the JSON error shape: fall through to the status.
  }
  return `The live tail was refused (${response.status}).`;
}

/** Opens the tail; the returned function closes it for good. */
export function openLiveTail(options: LiveTailOptions): () => void {
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const { handlers } = options;
  let stopped = false;
  let lastEventId: string | null = null;
  let delay = backoff.firstMs;
  let abort: AbortController | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const retryLater = (message: string | null, retryAfterMs?: number): void => {
    if (stopped) return;
    handlers.onStatus('disconnected', message);
    timer = setTimeout(connect, Math.max(retryAfterMs ?? 0, delay));
    delay = Math.min(delay * 2, backoff.maxMs);
  };

  async function connect(): Promise<void> {
    if (stopped) return;
    handlers.onStatus('connecting', null);
    abort = new AbortController();
    const headers: Record<string, string> = { Accept: 'text/event-stream' };
    const token = options.token();
    if (token) headers['Authorization'] = `Bearer ${token}`;
    if (lastEventId) headers['Last-Event-ID'] = lastEventId;
    let endMessage: string | null = null;
    try {
      const response = await fetch(`${API_BASE}/logs/tail?${new URLSearchParams(options.params).toString()}`, { headers, signal: abort.signal });
      if (!response.ok || !response.body) {
        const retryAfter = Number(response.headers.get('retry-after'));
        retryLater(await refusalMessage(response), Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined);
        return;
      }
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      const parser = new SseParser();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const message of parser.push(value)) {
          if (message.id) lastEventId = message.id;
          if (message.event === 'log') handlers.onLog(JSON.parse(message.data) as ApiLog);
          else if (message.event === 'ready') {
            delay = backoff.firstMs;
            handlers.onStatus('live', null);
          } else if (message.event === 'skipped') handlers.onSkipped?.(JSON.parse(message.data) as LogTailSkipped);
          else if (message.event === 'end') endMessage = (JSON.parse(message.data) as LogTailEnd).error;
        }
      }
    } catch {
      // A dropped connection or our own abort; stopped tells them apart below.
    }
    retryLater(endMessage);
  }

  void connect();
  return () => {
    stopped = true;
    clearTimeout(timer);
    abort?.abort();
  };
}
