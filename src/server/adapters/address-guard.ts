import dns from 'node:dns/promises';
import net from 'node:net';

/**
 * Where a game query may go (decisions §7). Every address a name resolves to must be public:
 * loopback, private, link-local, shared, documentation, multicast and reserved ranges are
 * refused, in IPv4 and IPv6 (with IPv4 inside mapped or NAT64 addresses checked as IPv4).
 * The caller then connects to the checked IP itself, so DNS cannot answer differently later.
 */
const blocked4 = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked4.addSubnet(network, prefix, 'ipv4');

const blocked6 = new net.BlockList();
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['2001::', 23],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2002::', 16],
] as const)
  blocked6.addSubnet(network, prefix, 'ipv6');

const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible or NAT64 (64:ff9b::/96) address. */
function embeddedIpv4(ip: string): string | undefined {
  const lower = ip.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const a = parseInt(hex[1]!, 16);
    const b = parseInt(hex[2]!, 16);
    return `${a >> 8}.${a & 255}.${b >> 8}.${b & 255}`;
  }
  return undefined;
}

export function isPublicAddress(ip: string, allowLoopback = false): boolean {
  const family = net.isIP(ip);
  if (family === 0) return false;
  if (allowLoopback && LOOPBACK.check(ip, family === 4 ? 'ipv4' : 'ipv6')) return true;
  if (family === 4) return !blocked4.check(ip, 'ipv4');
  const inner = embeddedIpv4(ip);
  if (inner) return isPublicAddress(inner, allowLoopback);
  if (ip.toLowerCase().startsWith('::ffff:')) return false;
  return !blocked6.check(ip, 'ipv6');
}

export class AddressRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AddressRefused';
  }
}

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

/**
 * Resolves a host once and answers the IP to connect to. Refuses names that resolve to any
 * non-public address, and hosts that are not a name or an IP literal.
 */
export async function resolvePublicAddress(
  host: string,
  options: { allowLoopback?: boolean; lookup?: typeof dns.lookup } = {},
): Promise<string> {
  const trimmed = host.trim().replace(/^\[(.*)\]$/, '$1');
  if (!net.isIP(trimmed) && !HOSTNAME.test(trimmed)) throw new AddressRefused('Enter a host name or an IP address.');
  const lookup = options.lookup ?? dns.lookup;
  let addresses: Array<{ address: string }>;
  try {
    addresses = net.isIP(trimmed) ? [{ address: trimmed }] : await lookup(trimmed, { all: true, verbatim: true });
  } catch {
    throw new AddressRefused('That host name does not resolve.');
  }
  if (addresses.length === 0) throw new AddressRefused('That host name does not resolve.');
  if (addresses.some((a) => !isPublicAddress(a.address, options.allowLoopback))) {
    throw new AddressRefused('This address points to a private or reserved network and cannot be queried.');
  }
  return addresses[0]!.address;
}
