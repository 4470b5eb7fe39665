/**
 * THE outbound guard: every connection Skald opens to a host a customer typed (webhook URLs, backup database
 * hosts) asks it for the address to connect to. It resolves the name once, checks EVERY address the name resolves
 * to (one private answer refuses the host: an attacker's DNS may mix them), and hands back the checked address so
 * the caller connects to exactly that address (no second lookup, so DNS rebinding between check and connect has
 * nothing to win). IP literals are checked too (a lookup-only guard is bypassed by them).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { addressListed, addressRange, canonicalHost, hostListed, parseAllowList } from './address-policy.ts';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Name resolution: all A and AAAA answers for a host name. */
export type HostResolver = (host: string) => Promise<readonly ResolvedAddress[]>;

export interface OutboundGuard {
  /** The address to connect to for `host` (a name or an IP literal, brackets allowed); throws OutboundRefused or OutboundFailed. */
  resolve(host: string): Promise<ResolvedAddress>;
}

export interface OutboundGuardOptions {
  /** OUTBOUND_ALLOWED_HOSTS: host names, IPs or CIDR ranges that may be private (empty by default). */
  readonly allowed: readonly string[];
  /** Defaults to the system resolver (dns.lookup, all answers). */
  readonly resolver?: HostResolver;
}

/** The destination is not allowed; the message is safe to show the customer (it names the host, never a path or credential). */
export class OutboundRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundRefused';
  }
}

export type OutboundFailureCode = 'dns' | 'connect' | 'timeout' | 'tls' | 'reset';

/** The destination could not be reached or answered too slowly; the message names the host only. */
export class OutboundFailed extends Error {
  readonly code: OutboundFailureCode;
  constructor(code: OutboundFailureCode, message: string) {
    super(message);
    this.name = 'OutboundFailed';
    this.code = code;
  }
}

const systemResolver: HostResolver = async (host) => {
  const answers = await dnsLookup(host, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export function createOutboundGuard(options: OutboundGuardOptions): OutboundGuard {
  const allow = parseAllowList(options.allowed);
  const resolver = options.resolver ?? systemResolver;

  function check(host: string, address: string): void {
    const range = addressRange(address);
    if (range === 'unicast' || hostListed(host, allow) || addressListed(address, allow)) return;
    const shown = host === address ? address : `${host} (${address})`;
    throw new OutboundRefused(`The destination ${shown} is not allowed: it is a ${describeRange(range)} address. Use a public host name or IP address.`);
  }

  return {
    async resolve(rawHost) {
      const host = canonicalHost(rawHost);
      if (host.length === 0) throw new OutboundRefused('The destination has no host.');
      const family = isIP(host);
      if (family !== 0) {
        check(host, host);
        return { address: host, family: family === 6 ? 6 : 4 };
      }
      let answers: readonly ResolvedAddress[];
      try {
        answers = await resolver(host);
      } catch {
        throw new OutboundFailed('dns', `Could not resolve ${host}.`);
      }
      if (answers.length === 0) throw new OutboundFailed('dns', `Could not resolve ${host}.`);
      for (const answer of answers) check(host, answer.address);
      return answers[0]!;
    },
  };
}

function describeRange(range: string): string {
  switch (range) {
    case 'loopback':
      return 'loopback';
    case 'private':
    case 'uniqueLocal':
      return 'private network';
    case 'linkLocal':
      return 'link-local (cloud metadata)';
    case 'carrierGradeNat':
      return 'carrier-grade NAT';
    case 'unspecified':
      return 'unspecified';
    case 'multicast':
    case 'broadcast':
      return range;
    default:
      return `reserved (${range})`;
  }
}
