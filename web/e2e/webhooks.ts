// The webhooks walkthrough's local webhook receiver, whose answer the walkthrough switches. The
// server's paid tier comes from the shared Stripe test server (stripe.ts, subscribeServer).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return (server.address() as AddressInfo).port;
}

export interface LocalReceiver {
  readonly url: string;
  /** Bodies received so far (parsed JSON). */
  readonly bodies: Record<string, unknown>[];
  status: number;
  close(): Promise<void>;
}

export async function startLocalReceiver(): Promise<LocalReceiver> {
  const receiver = { bodies: [] as Record<string, unknown>[], status: 200 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receiver.bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>);
      res.writeHead(receiver.status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const port = await listen(server);
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/api/webhooks/e2e/receiver`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
