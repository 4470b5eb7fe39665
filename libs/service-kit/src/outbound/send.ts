/**
 * One HTTP request to a customer's host through the outbound guard (webhook deliveries, tests of them).
 * - http and https only; a redirect is answered back as it came (3xx), never followed: a receiver must not
 *   steer Skald to another address (the Gogs/Gitea redirect bypasses).
 * - The socket connects to the address the guard checked (a lookup pinned to it), TLS still verifies the name.
 * - A connect timeout and a whole-request timeout; at most `maxResponseBytes` of the answer are read.
 * - Errors name the host only: the path and query of a webhook URL are credentials (Discord, Telegram tokens).
 * Node's built-in fetch takes no http.Agent or lookup, which is why this is node:http(s): the pinned lookup is what makes the address check hold.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { canonicalHost } from './address-policy.ts';
import { OutboundFailed, OutboundRefused, type OutboundGuard, type ResolvedAddress } from './guard.ts';

export interface OutboundRequest {
  readonly method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
  /** Default 5 s. */
  readonly connectTimeoutMs?: number;
  /** The whole exchange, connect to last byte read; default 15 s (Standard Webhooks: 15–30 s). */
  readonly timeoutMs?: number;
  /** Default 64 KiB; the rest of a longer answer is not read. */
  readonly maxResponseBytes?: number;
}

export interface OutboundResponse {
  readonly status: number;
  /** Lower-case names; repeated headers joined with ', '. */
  readonly headers: Readonly<Record<string, string>>;
  /** The first maxResponseBytes of the body, as UTF-8. */
  readonly body: string;
}

const DEFAULTS = { connectTimeoutMs: 5_000, timeoutMs: 15_000, maxResponseBytes: 64 * 1024 };

/** Parses and checks a customer URL without connecting (for saving a webhook); throws OutboundRefused. */
export function parseOutboundUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OutboundRefused('The URL is not valid.');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new OutboundRefused('Only http and https URLs are allowed.');
  if (parsed.hostname === '') throw new OutboundRefused('The URL has no host.');
  return parsed;
}

/** A lookup that answers the checked address whatever it is asked (so the connection cannot go elsewhere). */
function pinnedLookup(resolved: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (typeof options === 'object' && options.all === true) {
      (callback as (err: null, addresses: { address: string; family: number }[]) => void)(null, [{ address: resolved.address, family: resolved.family }]);
    } else {
      callback(null, resolved.address, resolved.family);
    }
  };
}

export async function sendOutbound(guard: OutboundGuard, url: string, request: OutboundRequest = {}): Promise<OutboundResponse> {
  const target = parseOutboundUrl(url);
  const host = canonicalHost(target.hostname);
  const resolved = await guard.resolve(host);
  const connectTimeoutMs = request.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs;
  const timeoutMs = request.timeoutMs ?? DEFAULTS.timeoutMs;
  const maxBytes = request.maxResponseBytes ?? DEFAULTS.maxResponseBytes;
  const secure = target.protocol === 'https:';
  const body = request.body === undefined ? undefined : typeof request.body === 'string' ? Buffer.from(request.body) : request.body;
  const headers: Record<string, string> = { ...request.headers };
  if (body !== undefined) headers['content-length'] = String(body.length);

  const options: https.RequestOptions = {
    protocol: target.protocol,
    // An IP literal is connected to as is (already checked); a name goes through the pinned lookup.
    host: resolved.address,
    port: target.port === '' ? (secure ? 443 : 80) : Number(target.port),
    path: `${target.pathname}${target.search}`,
    method: request.method ?? 'POST',
    headers: { host: target.host, ...headers },
    lookup: pinnedLookup(resolved),
    agent: false,
    ...(secure && isIP(host) === 0 ? { servername: host } : {}),
  };
  if (target.username !== '' || target.password !== '') {
    options.auth = `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`;
  }

  return new Promise<OutboundResponse>((resolve, reject) => {
    let settled = false;
    const finish = (err: Error | null, value?: OutboundResponse): void => {
      if (settled) return;
      settled = true;
      clearTimeout(overall);
      clearTimeout(connecting);
      if (err) reject(err);
      else resolve(value!);
    };
    const req = (secure ? https : http).request(options);
    const overall = setTimeout(() => {
      finish(new OutboundFailed('timeout', `${host} did not answer within ${Math.round(timeoutMs / 100) / 10} s.`));
      req.destroy();
    }, timeoutMs);
    const connecting = setTimeout(() => {
      finish(new OutboundFailed('timeout', `Could not connect to ${host} within ${Math.round(connectTimeoutMs / 100) / 10} s.`));
      req.destroy();
    }, connectTimeoutMs);
    req.on('socket', (socket) => {
      const connected = (): void => clearTimeout(connecting);
      if (secure) socket.once('secureConnect', connected);
      else socket.once('connect', connected);
    });
    req.on('error', (err: NodeJS.ErrnoException) => finish(describeFailure(host, err)));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = (): void => {
        const responseHeaders: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) responseHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        finish(null, { status: res.statusCode ?? 0, headers: responseHeaders, body: Buffer.concat(chunks).toString('utf8') });
        res.destroy();
      };
      res.on('data', (chunk: Buffer) => {
        const room = maxBytes - size;
        if (room > 0) chunks.push(room >= chunk.length ? chunk : chunk.subarray(0, room));
        size += chunk.length;
        if (size >= maxBytes) done();
      });
      res.on('end', done);
      res.on('error', (err: NodeJS.ErrnoException) => finish(describeFailure(host, err)));
    });
    req.end(body);
  });
}

function describeFailure(host: string, err: NodeJS.ErrnoException): OutboundFailed {
  if (err instanceof OutboundFailed) return err;
  switch (err.code) {
    case 'ECONNREFUSED':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return new OutboundFailed('connect', `Could not connect to ${host} (${err.code}).`);
    case 'ECONNRESET':
    case 'EPIPE':
      return new OutboundFailed('reset', `The connection to ${host} was closed before an answer (${err.code}).`);
    default:
      if (typeof err.code === 'string' && /CERT|SSL|TLS/.test(err.code)) return new OutboundFailed('tls', `TLS with ${host} failed (${err.code}).`);
      return new OutboundFailed('connect', `The request to ${host} failed${typeof err.code === 'string' ? ` (${err.code})` : ''}.`);
  }
}
