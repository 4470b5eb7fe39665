/**
 * Which network addresses a call to a customer's host may reach (webhook receivers, game databases).
 * Only public unicast addresses pass: loopback, private (RFC 1918), carrier-grade NAT, link-local (cloud metadata
 * at 169.254.169.254), multicast, broadcast, unspecified, reserved, IPv6 unique-local, and every IPv6 form that
 * embeds or translates an IPv4 address (IPv4-mapped, NAT64, 6to4, Teredo) are refused, unless the operator lists
 * them in OUTBOUND_ALLOWED_HOSTS. ipaddr.js classifies (the OWASP SSRF sheet's advice: a library, not regexes;
 * the `ip` package is avoided for its unfixed misclassifications).
 */
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** One OUTBOUND_ALLOWED_HOSTS entry: a host name, an IP address or a CIDR range. */
export type AllowEntry =
  | { readonly kind: 'host'; readonly name: string }
  | { readonly kind: 'range'; readonly range: [Address, number] };

/** Parses the allow-list; a malformed entry throws (a typo must not silently allow or refuse). */
export function parseAllowList(entries: readonly string[]): AllowEntry[] {
  return entries
    .map((e) => e.trim())
    .filter((e) => e.length > 0)
    .map((entry): AllowEntry => {
      const bare = stripBrackets(entry);
      if (/^[0-9a-f:.]+\/\d{1,3}$/i.test(bare)) {
        try {
          const [addr, bits] = ipaddr.parseCIDR(bare);
          return { kind: 'range', range: [normalise(addr), addr.kind() === 'ipv6' && normalise(addr).kind() === 'ipv4' ? Math.max(0, bits - 96) : bits] };
        } catch {
          throw new Error(`OUTBOUND_ALLOWED_HOSTS: "${entry}" is not a valid CIDR range`);
        }
      }
      if (ipaddr.isValid(bare) && isCanonicalIp(bare)) {
        const addr = normalise(ipaddr.parse(bare));
        return { kind: 'range', range: [addr, addr.kind() === 'ipv4' ? 32 : 128] };
      }
      if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i.test(bare)) {
        throw new Error(`OUTBOUND_ALLOWED_HOSTS: "${entry}" is not a host name, an IP address or a CIDR range`);
      }
      return { kind: 'host', name: canonicalHost(bare) };
    });
}

/** Lower case, no brackets around an IPv6 literal, no trailing dot: the form host names are compared in. */
export function canonicalHost(host: string): string {
  return stripBrackets(host).toLowerCase().replace(/\.$/, '');
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** Dotted-quad or IPv6 text only: ipaddr.js also reads '0x7f.1' and '017700000001', which are not what an operator means. */
function isCanonicalIp(text: string): boolean {
  return text.includes(':') || /^\d{1,3}(\.\d{1,3}){3}$/.test(text);
}

/** IPv4-mapped IPv6 (::ffff:a.b.c.d) is the IPv4 address it carries. */
function normalise(addr: Address): Address {
  return addr.kind() === 'ipv6' ? ipaddr.process(addr.toString()) : addr;
}

/** The range name ipaddr.js gives an address ('unicast' for a public one), after unwrapping IPv4-mapped forms. */
export function addressRange(address: string): string {
  return normalise(ipaddr.parse(address)).range();
}

/** True when the allow-list names this resolved address (by IP or CIDR). */
export function addressListed(address: string, allow: readonly AllowEntry[]): boolean {
  const addr = normalise(ipaddr.parse(address));
  return allow.some((entry) => entry.kind === 'range' && entry.range[0].kind() === addr.kind() && addr.match(entry.range));
}

/** True when the allow-list names this host name. */
export function hostListed(host: string, allow: readonly AllowEntry[]): boolean {
  const name = canonicalHost(host);
  return allow.some((entry) => entry.kind === 'host' && entry.name === name);
}
