/**
 * A local webhook receiver on a real loopback socket: records every request (path, headers, JSON body)
 * and every TCP connection, and answers what the test scripts (a status, headers, a body, or a hang).
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly raw: string;
  readonly body: Record<string, unknown>;
}

export interface Answer {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Never answer (the connection stays open until the receiver closes). */
  readonly hang?: boolean;
}

export interface Receiver {
  readonly url: string;
  readonly port: number;
  readonly requests: ReceivedRequest[];
  /** TCP connections accepted so far (the SSRF tests expect 0). */
  connections: number;
  /** Decides the answer of each request; default 200. */
  answer: (request: ReceivedRequest, index: number) => Answer;
  close(): Promise<void>;
}

export async function startReceiver(host = '127.0.0.1', path = '/hook'): Promise<Receiver> {
  const hanging = new Set<() => void>();
  const receiver: Receiver = {
    url: '',
    port: 0,
    requests: [],
    connections: 0,
    answer: () => ({ status: 200 }),
    close: async () => {
      for (const end of hanging) end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        // not JSON
      }
      const received: ReceivedRequest = { path: req.url ?? '', headers: req.headers, raw, body };
      receiver.requests.push(received);
      const answer = receiver.answer(received, receiver.requests.length - 1);
      if (answer.hang) {
        hanging.add(() => res.destroy());
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body ?? '{}');
    });
  });
  server.on('connection', () => {
    receiver.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, host, () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(receiver, { port, url: `http://${host.includes(':') ? `[${host}]` : host}:${port}${path}` });
}
