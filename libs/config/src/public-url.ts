/**
 * PUBLIC_URL: the address users open, the base of every link in a mail (password reset) and of redirects.
 * Never taken from a request's Host header (a forged Host would mail forged links). When unset, the best
 * guess is the address this process listens on (an all-in-one on PORT=9000 must not mail
 * links to :8080); a single distributed service is reached through the gateway, so it guesses the
 * gateway's default address instead. A guess is fine on a developer's machine and wrong almost
 * everywhere else, hence the start-up warning in production and outside the all-in-one.
 */
import type { Target } from './env-schema.ts';
import { DEFAULT_PORTS } from './config.ts';

export interface PublicUrlSettings {
  readonly url: string;
  /** One line for the start-up log when the URL is a guess that is likely wrong; null otherwise. */
  readonly warning: string | null;
}

/** `http://host:port` a browser on this machine can open: wildcard addresses become localhost, IPv6 is bracketed. */
export function listenUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' || host === '[::]' ? 'localhost' : host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${reachable}:${port}`;
}

export function publicUrlSettings(input: {
  readonly given: string | undefined;
  readonly target: Target;
  readonly host: string;
  readonly port: number;
  readonly nodeEnv: string | undefined;
}): PublicUrlSettings {
  if (input.given !== undefined) return { url: input.given.replace(/\/+$/, ''), warning: null };
  const listensPublicly = input.target === 'all' || input.target === 'gateway';
  const url = listensPublicly ? listenUrl(input.host, input.port) : listenUrl('localhost', DEFAULT_PORTS.gateway);
  // PORT=0 binds a port only known once listening: a guess cannot name it.
  const likelyWrong = input.nodeEnv === 'production' || input.target !== 'all' || (listensPublicly && input.port === 0);
  return {
    url,
    warning: likelyWrong
      ? `PUBLIC_URL is not set: links in mails (password reset) will point to ${url}; set PUBLIC_URL to the address users open`
      : null,
  };
}
