// What kind of network an IP address belongs to. Pure: no DNS, no sockets. Every spelling of an
// address is the address: the WHATWG URL parser already turns decimal, octal and hex IPv4 forms
// (`http://2130706433/`, `http://0177.1/`) into dotted quads; IPv4-mapped, -compatible, NAT64 and
// 6to4 IPv6 forms are classified by the IPv4 address they carry.
import net from 'node:net';

export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private' // RFC 1918, unique-local IPv6 (fc00::/7), site-local IPv6
  | 'cgnat' // 100.64.0.0/10
  | 'link-local' // 169.254.0.0/16, fe80::/10: cloud metadata services live here
  | 'unspecified' // 0.0.0.0/8, ::  (connecting to them reaches this host)
  | 'reserved'; // multicast, broadcast, documentation, benchmarking, 240/4 …

/** Cloud metadata addresses outside the link-local ranges (always refused, like link-local). */
const METADATA = new Set(['100.100.100.200', 'fd00:ec2:0:0:0:0:0:254']);

/** `[::1]` → `::1`; an IPv4 or IPv6 literal in canonical form, or null when `host` is a name. */
export function ipLiteral(host: string): string | null {
  const bare = host.replace(/^\[|\]$/g, '');
  const version = net.isIP(bare);
  if (version === 4) return bare;
  if (version === 6) return expandIpv6(bare).join(':');
  return null;
}

export function classifyIp(ip: string): AddressClass {
  const version = net.isIP(ip);
  if (version === 4) return classifyIpv4(ipv4Octets(ip));
  if (version === 6) return classifyIpv6(expandIpv6(ip));
  throw new Error(`not an IP address: ${ip}`);
}

export function isMetadataAddress(ip: string): boolean {
  const literal = ipLiteral(ip);
  if (!literal) return false;
  const embedded = net.isIP(literal) === 6 ? embeddedIpv4(expandIpv6(literal)) : null;
  return METADATA.has(literal) || (embedded !== null && METADATA.has(embedded.join('.')));
}

function ipv4Octets(ip: string): number[] {
  return ip.split('.').map(Number);
}

function classifyIpv4([a, b, c]: number[]): AddressClass {
  if (a === 127) return 'loopback';
  if (a === 0) return 'unspecified';
  if (a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 100 && b! >= 64 && b! <= 127) return 'cgnat';
  if (a === 169 && b === 254) return 'link-local';
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return 'reserved'; // IETF protocol assignments, TEST-NET-1
  if (a === 198 && (b === 18 || b === 19)) return 'reserved'; // benchmarking
  if ((a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)) return 'reserved'; // TEST-NET-2/3
  if (a! >= 224) return 'reserved'; // multicast, 240/4, broadcast
  return 'public';
}

/** Eight 16-bit groups as numbers' hex strings without leading zeros (`0:0:0:0:0:ffff:7f00:1`). */
function expandIpv6(ip: string): string[] {
  let text = ip.toLowerCase().replace(/%.*$/, ''); // zone id
  // A dotted IPv4 tail (`::ffff:127.0.0.1`) becomes two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = ipv4Octets(dotted[1]!);
    text = text.slice(0, -dotted[1]!.length) + `${((a! << 8) | b!).toString(16)}:${((c! << 8) | d!).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : new Array(8 - headGroups.length - tailGroups.length).fill('0');
  return [...headGroups, ...zeros, ...tailGroups].map((g) => parseInt(g, 16).toString(16));
}

const groupValue = (groups: string[], i: number) => parseInt(groups[i]!, 16);

/** The IPv4 address carried by a mapped, compatible, NAT64 or 6to4 IPv6 address. */
function embeddedIpv4(groups: string[]): number[] | null {
  const v = (i: number) => groupValue(groups, i);
  const fromGroups = (hi: number, lo: number) => [hi >> 8, hi & 255, lo >> 8, lo & 255];
  const zeroUntil = (n: number) => groups.slice(0, n).every((g) => g === '0');
  if (zeroUntil(5) && v(5) === 0xffff) return fromGroups(v(6), v(7)); // ::ffff:a.b.c.d
  if (zeroUntil(4) && v(4) === 0xffff && v(5) === 0) return fromGroups(v(6), v(7)); // ::ffff:0:a.b.c.d (SIIT)
  if (zeroUntil(6) && (v(6) !== 0 || v(7) > 1)) return fromGroups(v(6), v(7)); // ::a.b.c.d (deprecated)
  if (v(0) === 0x64 && v(1) === 0xff9b && groups.slice(2, 6).every((g) => g === '0')) return fromGroups(v(6), v(7)); // NAT64
  if (v(0) === 0x2002) return fromGroups(v(1), v(2)); // 6to4
  return null;
}

function classifyIpv6(groups: string[]): AddressClass {
  const v = (i: number) => groupValue(groups, i);
  if (groups.every((g) => g === '0')) return 'unspecified';
  if (groups.slice(0, 7).every((g) => g === '0') && v(7) === 1) return 'loopback';
  const embedded = embeddedIpv4(groups);
  if (embedded) return classifyIpv4(embedded);
  const first = v(0);
  if ((first & 0xffc0) === 0xfe80) return 'link-local';
  if ((first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfec0) return 'private';
  if ((first & 0xff00) === 0xff00) return 'reserved'; // multicast
  if (first === 0x2001 && v(1) === 0xdb8) return 'reserved'; // documentation
  if (first === 0x100 && groups.slice(1, 4).every((g) => g === '0')) return 'reserved'; // discard
  return 'public';
}
