// The outbound guard against real loopback sockets: with an empty allow-list nothing private is reached (the
// receiver counts connections, so "refused" means no socket was opened), an allowed receiver is reached, a
// redirect is handed back and not followed, answers are capped and slow hosts time out.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundGuard, OutboundFailed, OutboundRefused, parseAllowList, sendOutbound, type HostResolver } from '../src/index.ts';

interface Receiver {
  readonly server: Server;
  readonly port: number;
  connections: number;
  requests: { method: string; url: string; headers: Record<string, string | string[] | undefined>; body: string }[];
}

async function startReceiver(handler: (url: string, res: ServerResponse) => void): Promise<Receiver> {
  const receiver: Receiver = { server: createServer(), port: 0, connections: 0, requests: [] };
  receiver.server.on('connection', () => (receiver.connections += 1));
  receiver.server.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receiver.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
      handler(req.url ?? '', res);
    });
  });
  await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
  return Object.assign(receiver, { port: (receiver.server.address() as AddressInfo).port });
}

/** A resolver for names the test controls (no DNS needed); unknown names fail like NXDOMAIN. */
const fakeDns: HostResolver = async (host) => {
  const table: Record<string, { address: string; family: 4 | 6 }[]> = {
    'rebind.example': [{ address: '127.0.0.1', family: 4 }],
    'mixed.example': [{ address: '93.184.215.14', family: 4 }, { address: '10.1.2.3', family: 4 }],
    'public.example': [{ address: '93.184.215.14', family: 4 }],
  };
  const answer = table[host];
  if (!answer) throw new Error('ENOTFOUND');
  return answer;
};

let receiver: Receiver;
let other: Receiver;

beforeAll(async () => {
  receiver = await startReceiver((url, res) => {
    if (url.startsWith('/redirect')) {
      res.writeHead(302, { location: `http://127.0.0.2:${other.port}/stolen` }).end();
    } else if (url.startsWith('/big')) {
      res.writeHead(200).end('x'.repeat(200_000));
    } else if (url.startsWith('/slow')) {
      setTimeout(() => res.writeHead(200).end('late'), 2_000);
    } else {
      res.writeHead(201, { 'x-answer': 'yes' }).end('received');
    }
  });
  other = await startReceiver((_url, res) => res.writeHead(200).end('should never be reached'));
});

afterAll(async () => {
  receiver.server.closeAllConnections();
  other.server.closeAllConnections();
  await Promise.all([receiver.server.close(), other.server.close()]);
});

describe('outbound guard: with an empty allow-list nothing private is reached', () => {
  const guard = createOutboundGuard({ allowed: [], resolver: fakeDns });
  const port = (): number => receiver.port;
  const refusedUrls = (): string[] => [
    `http://127.0.0.1:${port()}/hook`,
    `http://127.9.9.9:${port()}/hook`,
    `http://0x7f.1:${port()}/hook`,
    `http://2130706433:${port()}/hook`,
    `http://[::1]:${port()}/hook`,
    `http://[::ffff:127.0.0.1]:${port()}/hook`,
    `http://[fd00::1]:${port()}/hook`,
    `http://[fe80::1]:${port()}/hook`,
    `http://[64:ff9b::7f00:1]:${port()}/hook`,
    `http://10.0.0.1:${port()}/hook`,
    `http://172.16.0.1:${port()}/hook`,
    `http://172.31.255.254:${port()}/hook`,
    `http://192.168.1.1:${port()}/hook`,
    `http://169.254.169.254/latest/meta-data/`,
    `http://100.64.0.1:${port()}/hook`,
    `http://0.0.0.0:${port()}/hook`,
    `http://224.0.0.1:${port()}/hook`,
    `http://255.255.255.255:${port()}/hook`,
    `http://rebind.example:${port()}/hook`,
    `http://mixed.example:${port()}/hook`,
  ];

  it('refuses every private, loopback, link-local, reserved and mapped form, and opens no connection', async () => {
    const before = receiver.connections;
    for (const url of refusedUrls()) {
      await expect(sendOutbound(guard, url, { body: '{}' }), url).rejects.toBeInstanceOf(OutboundRefused);
    }
    expect(receiver.connections).toBe(before);
    expect(receiver.requests).toHaveLength(0);
  });

  it('refuses localhost through the real resolver', async () => {
    const real = createOutboundGuard({ allowed: [] });
    await expect(real.resolve('localhost')).rejects.toBeInstanceOf(OutboundRefused);
    await expect(sendOutbound(real, `http://localhost:${port()}/hook`)).rejects.toThrow(/localhost \((127\.0\.0\.1|::1)\) is not allowed: it is a loopback address/);
  });

  it('refuses a host when any one of its addresses is private', async () => {
    await expect(guard.resolve('mixed.example')).rejects.toThrow('The destination mixed.example (10.1.2.3) is not allowed: it is a private network address.');
    await expect(guard.resolve('public.example')).resolves.toEqual({ address: '93.184.215.14', family: 4 });
  });

  it('refuses other schemes and says so', async () => {
    for (const url of ['ftp://example.com/x', 'file:///etc/passwd', 'gopher://127.0.0.1:70/x', 'not a url']) {
      await expect(sendOutbound(guard, url), url).rejects.toBeInstanceOf(OutboundRefused);
    }
    await expect(sendOutbound(guard, 'file:///etc/passwd')).rejects.toThrow('Only http and https URLs are allowed.');
  });

  it('reports a name that does not resolve as a DNS failure, naming the host only', async () => {
    const failure = await sendOutbound(guard, 'https://nowhere.example/secret-token-path?key=abc').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OutboundFailed);
    expect((failure as OutboundFailed).code).toBe('dns');
    expect((failure as Error).message).toBe('Could not resolve nowhere.example.');
  });
});

describe('outbound guard: an allowed receiver', () => {
  const guard = createOutboundGuard({ allowed: ['127.0.0.1'] });

  it('delivers the request and returns status, headers and body', async () => {
    const answer = await sendOutbound(guard, `http://127.0.0.1:${receiver.port}/hook?x=1`, { headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(answer.status).toBe(201);
    expect(answer.headers['x-answer']).toBe('yes');
    expect(answer.body).toBe('received');
    const got = receiver.requests.at(-1)!;
    expect(got).toMatchObject({ method: 'POST', url: '/hook?x=1', body: '{"a":1}' });
    expect(got.headers['host']).toBe(`127.0.0.1:${receiver.port}`);
  });

  it('hands a redirect back without following it, even to an allowed address', async () => {
    const wide = createOutboundGuard({ allowed: ['127.0.0.0/8'] });
    const before = other.connections;
    const answer = await sendOutbound(wide, `http://127.0.0.1:${receiver.port}/redirect`);
    expect(answer.status).toBe(302);
    expect(answer.headers['location']).toContain('/stolen');
    expect(other.connections).toBe(before);
  });

  it('reads at most maxResponseBytes of an answer', async () => {
    const answer = await sendOutbound(guard, `http://127.0.0.1:${receiver.port}/big`, { maxResponseBytes: 1000 });
    expect(answer.status).toBe(200);
    expect(answer.body).toHaveLength(1000);
  });

  it('gives up on a slow answer after timeoutMs', async () => {
    const started = Date.now();
    const failure = await sendOutbound(guard, `http://127.0.0.1:${receiver.port}/slow`, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OutboundFailed);
    expect((failure as OutboundFailed).code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1_900);
  });

  it('reports a closed port as a connect failure', async () => {
    const closed = await startReceiver(() => {});
    const port = closed.port;
    await new Promise<void>((resolve) => closed.server.close(() => resolve()));
    const failure = await sendOutbound(guard, `http://127.0.0.1:${port}/hook`).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OutboundFailed);
    expect((failure as OutboundFailed).code).toBe('connect');
  });

  it('lets a listed host name through to its private address, and only that name', async () => {
    const named = createOutboundGuard({ allowed: ['rebind.example'], resolver: fakeDns });
    const answer = await sendOutbound(named, `http://rebind.example:${receiver.port}/named`);
    expect(answer.status).toBe(201);
    await expect(named.resolve('127.0.0.1')).rejects.toBeInstanceOf(OutboundRefused);
  });
});

describe('OUTBOUND_ALLOWED_HOSTS entries', () => {
  it('reads host names, IPs (v4 and bracketed v6) and CIDR ranges', () => {
    expect(parseAllowList(['db.internal', ' 10.0.0.0/8 ', '[::1]', '', '192.168.1.5']).map((e) => e.kind)).toEqual(['host', 'range', 'range', 'range']);
  });

  it('refuses a malformed entry instead of guessing', () => {
    expect(() => parseAllowList(['10.0.0.0/33'])).toThrow('OUTBOUND_ALLOWED_HOSTS: "10.0.0.0/33" is not a valid CIDR range');
    expect(() => parseAllowList(['http://x'])).toThrow('is not a host name, an IP address or a CIDR range');
  });

  it('a CIDR entry allows the addresses inside it only', async () => {
    const guard = createOutboundGuard({ allowed: ['10.1.0.0/16'] });
    await expect(guard.resolve('10.1.200.3')).resolves.toEqual({ address: '10.1.200.3', family: 4 });
    await expect(guard.resolve('10.2.0.1')).rejects.toBeInstanceOf(OutboundRefused);
  });
});
