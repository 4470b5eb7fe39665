/**
 * A server-sent events client for tests (the live tail): opens the stream with fetch over a real socket
 * (Fastify's inject waits for the end of an answer, which a stream never reaches), parses the frames as
 * the EventSource standard does (event, data, id fields; `:` comments; a blank line dispatches), and
 * lets a test wait for the frame it expects.
 */
import { waitFor } from './wait-for.ts';

export interface SseEvent {
  readonly event: string;
  readonly data: string;
  /** The frame's own `id:` field; undefined when it had none. */
  readonly id: string | undefined;
  /** performance.now() when the frame was dispatched: a benchmark times its arrival without polling. */
  readonly receivedAt: number;
}

export interface EventStreamClient {
  readonly status: number;
  readonly headers: Headers;
  /** Every dispatched event so far, in order. */
  readonly events: SseEvent[];
  /** Every comment line (without the colon) so far. */
  readonly comments: string[];
  /** The body of an answer that is not a stream (a refusal), else ''. */
  readonly text: string;
  /** True once the server ended the stream. */
  readonly ended: () => boolean;
  /** Waits until an event satisfies `match` (already received ones count) and returns it. */
  waitForEvent(match: (event: SseEvent) => boolean, what: string, timeoutMs?: number): Promise<SseEvent>;
  close(): void;
}

export async function openEventStream(url: string, headers: Readonly<Record<string, string>> = {}): Promise<EventStreamClient> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  let ended = false;
  let text = '';
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    text = await response.text();
    ended = true;
  } else {
    void pump(response, events, comments).finally(() => {
      ended = true;
    });
  }
  return {
    status: response.status,
    headers: response.headers,
    events,
    comments,
    text,
    ended: () => ended,
    // The bound of waitFor: a loaded CI machine (the backend tiers run beside the browser tier) is slow, not wrong.
    async waitForEvent(match, what, timeoutMs = 15_000) {
      await waitFor(() => events.some(match), what, timeoutMs);
      return events.find(match)!;
    },
    close: () => abort.abort(),
  };
}

async function pump(response: Response, events: SseEvent[], comments: string[]): Promise<void> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let frame: { event: string; data: string[]; id: string | undefined } = { event: 'message', data: [], id: undefined };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let newline: number;
      while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
        if (line === '') {
          if (frame.data.length > 0) events.push({ event: frame.event, data: frame.data.join('\n'), id: frame.id, receivedAt: performance.now() });
          frame = { event: 'message', data: [], id: undefined };
        } else if (line.startsWith(':')) comments.push(line.slice(1).trim());
        else {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const raw = colon < 0 ? '' : line.slice(colon + 1);
          const value = raw.startsWith(' ') ? raw.slice(1) : raw;
          if (field === 'event') frame.event = value;
          else if (field === 'data') frame.data.push(value);
          else if (field === 'id') frame.id = value;
        }
      }
    }
  } catch {
    // Aborted by close(), or the connection dropped: the stream is over either way.
  }
}
