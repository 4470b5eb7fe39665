/**
 * The /logs screen's Live toggle against a scripted GET /logs/tail stream: new logs on top as
 * they arrive, pause and resume, the filters going with the tail, the disconnected state, and the
 * reconnection by itself with Last-Event-ID (and after a refusal, with the server's message shown).
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ApiLog } from '@skald/contracts/api';
import LogsPage from '../src/features/logs/LogsPage.tsx';
import { SseParser } from '../src/features/logs/sseParser.ts';
import { apiLog, LEVELS, levelColors } from './fixtures.ts';
import { json, mockApi, renderScreen, SIGNED_IN } from './helpers.tsx';

const settings = {
  'GET /settings/colors': () => json(levelColors()),
  'GET /settings/levels': () => json(LEVELS),
  'GET /logs/my': () => json([apiLog({ id: 'paged', message: 'from the page' })], { headers: { 'X-Total-Count': '1' } }),
};

/** One scripted event stream: the test pushes frames and can drop the connection. */
interface Stream {
  readonly request: Request;
  send(text: string): void;
  drop(): void;
}

function tailServer() {
  const streams: Stream[] = [];
  const handler = (request: Request): Response => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    const encoder = new TextEncoder();
    streams.push({ request, send: (text) => controller.enqueue(encoder.encode(text)), drop: () => controller.close() });
    return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
  };
  return { streams, handler };
}

const logFrame = (log: ApiLog): string => `id: ${log.id}\nevent: log\ndata: ${JSON.stringify(log)}\n\n`;
const READY = 'event: ready\ndata: {"replayed":0}\n\n';
const messages = (): string[] => screen.queryAllByTestId('log-card').map((card) => within(card).getByText(/^live /).textContent ?? '');

async function goLive() {
  fireEvent.click(screen.getByRole('switch', { name: 'Live' }));
}

describe('Logs screen, Live toggle', () => {
  it('streams new logs on top, stops polling the page, and shows the live state', async () => {
    const tail = tailServer();
    const seen = mockApi({ ...settings, 'GET /logs/tail': tail.handler });
    renderScreen(<LogsPage />, { session: SIGNED_IN });
    await screen.findByText('from the page');
    await goLive();
    await waitFor(() => expect(tail.streams).toHaveLength(1));
    const request = tail.streams[0]!.request;
    expect(Object.fromEntries(new URL(request.url).searchParams)).toEqual({ serverId: 's1' });
    expect(request.headers.get('authorization')).toBe('Bearer test-token');
    expect(request.headers.get('last-event-id')).toBeNull();
    expect(screen.getByTestId('live-status').textContent).toBe('Connecting…');
    act(() => tail.streams[0]!.send(READY));
    await screen.findByText('Live: new logs appear at the top as they arrive.');
    expect(screen.queryByText('from the page')).toBeNull();
    act(() => tail.streams[0]!.send(logFrame(apiLog({ id: 'a', message: 'live one' }))));
    act(() => tail.streams[0]!.send(logFrame(apiLog({ id: 'b', message: 'live two' }))));
    await waitFor(() => expect(messages()).toEqual(['live two', 'live one']));
    const pagedCalls = seen.filter((r) => r.url.includes('/logs/my')).length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen.filter((r) => r.url.includes('/logs/my')).length).toBe(pagedCalls);
  });

  it('holds new logs while paused and shows them on top when resumed', async () => {
    const tail = tailServer();
    mockApi({ ...settings, 'GET /logs/tail': tail.handler });
    renderScreen(<LogsPage />, { session: SIGNED_IN });
    await goLive();
    await waitFor(() => expect(tail.streams).toHaveLength(1));
    act(() => tail.streams[0]!.send(READY + logFrame(apiLog({ id: 'a', message: 'live first' }))));
    await waitFor(() => expect(messages()).toEqual(['live first']));
    fireEvent.click(screen.getByRole('button', { name: /Pause/ }));
    act(() => tail.streams[0]!.send(logFrame(apiLog({ id: 'b', message: 'live held 1' })) + logFrame(apiLog({ id: 'c', message: 'live held 2' }))));
    await screen.findByText('Paused: 2 new logs waiting.');
    expect(messages()).toEqual(['live first']);
    fireEvent.click(screen.getByRole('button', { name: /Resume/ }));
    await waitFor(() => expect(messages()).toEqual(['live held 2', 'live held 1', 'live first']));
    expect(screen.getByTestId('live-status').textContent).toBe('Live: new logs appear at the top as they arrive.');
  });

  it('opens a fresh tail with the filters when they change', async () => {
    const tail = tailServer();
    mockApi({ ...settings, 'GET /logs/tail': tail.handler });
    renderScreen(<LogsPage />, { session: SIGNED_IN });
    await goLive();
    await waitFor(() => expect(tail.streams).toHaveLength(1));
    act(() => tail.streams[0]!.send(READY + logFrame(apiLog({ id: 'a', message: 'live unfiltered' }))));
    await waitFor(() => expect(messages()).toEqual(['live unfiltered']));
    fireEvent.click(screen.getByRole('button', { name: /Show filters/ }));
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'sword' } });
    await waitFor(() => expect(tail.streams).toHaveLength(2));
    expect(Object.fromEntries(new URL(tail.streams[1]!.request.url).searchParams)).toEqual({ serverId: 's1', search: 'sword' });
    expect(messages()).toEqual([]);
  });

  it('shows a dropped stream as disconnected and reconnects by itself after the last log id', async () => {
    const tail = tailServer();
    mockApi({ ...settings, 'GET /logs/tail': tail.handler });
    renderScreen(<LogsPage />, { session: SIGNED_IN });
    await goLive();
    await waitFor(() => expect(tail.streams).toHaveLength(1));
    const last = apiLog({ id: '0190a1b2-c3d4-7000-8000-000000000002', message: 'live before the drop' });
    act(() => tail.streams[0]!.send(READY + logFrame(last)));
    await waitFor(() => expect(messages()).toEqual(['live before the drop']));
    act(() => tail.streams[0]!.drop());
    await screen.findByText('Disconnected. Reconnecting…');
    await waitFor(() => expect(tail.streams).toHaveLength(2));
    expect(tail.streams[1]!.request.headers.get('last-event-id')).toBe(last.id);
    act(() => tail.streams[1]!.send(READY + logFrame(apiLog({ id: '0190a1b2-c3d4-7000-8000-000000000003', message: 'live after' }))));
    await waitFor(() => expect(messages()).toEqual(['live after', 'live before the drop']));
  });

  it('shows the server’s message when the tail is refused, then tries again', async () => {
    const tail = tailServer();
    let refusals = 0;
    const limit = 'This server already has 10 live tails open (the limit). Close one, in another tab or by another member, and try again.';
    mockApi({
      ...settings,
      'GET /logs/tail': (request) => (refusals++ === 0 ? json({ error: limit, message: limit }, { status: 429 }) : tail.handler(request)),
    });
    renderScreen(<LogsPage />, { session: SIGNED_IN });
    await goLive();
    await screen.findByText(`Disconnected. Reconnecting… ${limit}`);
    await waitFor(() => expect(tail.streams).toHaveLength(1));
    act(() => tail.streams[0]!.send(READY));
    await screen.findByText('Live: new logs appear at the top as they arrive.');
  });
});

describe('SseParser', () => {
  it('parses frames split anywhere, CRLF lines, comments and multi-line data', () => {
    const parser = new SseParser();
    const text = ': ping\r\n\r\nid: 1\r\nevent: log\r\ndata: {"a":\r\ndata: 1}\r\n\r\nretry: 2000\n\nevent: ready\ndata: {}\n\n';
    const got = [...text].flatMap((ch) => parser.push(ch));
    expect(got).toEqual([
      { event: 'log', data: '{"a":\n1}', id: '1' },
      { event: 'ready', data: '{}', id: undefined },
    ]);
  });
});
