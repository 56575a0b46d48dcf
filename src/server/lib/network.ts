import ipaddr from 'ipaddr.js';

/** How IPv6 writes an IPv4 client on a dual-stack socket. */
const MAPPED = '::ffff:';

/**
 * The four octets of an address written as every socket and proxy writes IPv4 (`203.0.113.7`, or
 * `::ffff:203.0.113.7` on a dual-stack socket: four decimal numbers to 255, no leading zero), or
 * undefined for any other spelling, which goes through ipaddr.js (`0x7f.1`, `010.0.0.1` in octal,
 * IPv6). ipaddr.js took 3-4 % of a vote's time here: each request asks for its address's network
 * and keys several times, and its parser tries each IPv4 form with regular expressions.
 */
function plainIPv4(ip: string): [number, number, number, number] | undefined {
  let at = ip.startsWith(MAPPED) ? MAPPED.length : 0;
  const octets: number[] = [];
  while (octets.length < 4) {
    let value = 0;
    let digits = 0;
    for (; at < ip.length; at++) {
      const code = ip.charCodeAt(at) - 48;
      if (code < 0 || code > 9) break;
      if (digits === 1 && value === 0) return undefined;
      value = value * 10 + code;
      digits += 1;
      if (value > 255) return undefined;
    }
    if (digits === 0) return undefined;
    octets.push(value);
    if (octets.length < 4) {
      if (ip.charCodeAt(at) !== 46) return undefined;
      at += 1;
    }
  }
  return at === ip.length ? (octets as [number, number, number, number]) : undefined;
}

/**
 * The network a client address belongs to, as abuse limits see it: an IPv4 /24 or an IPv6 /64.
 * One household, office or cloud tenant usually owns a whole /64, so counting IPv6 clients per
 * address would give each of them billions of fresh identities. IPv4-mapped IPv6 counts as IPv4.
 */
export function clientNetwork(ip: string): string {
  const plain = plainIPv4(ip);
  if (plain) return `${plain[0]}.${plain[1]}.${plain[2]}.0/24`;
  if (!ipaddr.isValid(ip)) return ip;
  let address = ipaddr.parse(ip);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    address = (address as ipaddr.IPv6).toIPv4Address();
  }
  if (address.kind() === 'ipv4') {
    const [a, b, c] = (address as ipaddr.IPv4).octets;
    return `${a}.${b}.${c}.0/24`;
  }
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(':')}::/64`;
}

/**
 * The key brute-force limits count a client by: an IPv4 address as it is (many people share a
 * /24 behind one provider), an IPv6 client by its /64 (one subscriber gets a whole /64).
 */
export function clientKey(ip: string): string {
  const plain = plainIPv4(ip);
  if (plain) return plain.join('.');
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  return address.kind() === 'ipv4' ? address.toString() : clientNetwork(ip);
}

/**
 * The widest block one party is likely to hold: an IPv6 /48 (what a site or a rented server is
 * usually given, 65,536 /64s), an IPv4 address as itself. Limits keyed by it stop one attacker
 * from spreading guesses at one account over many /64s.
 */
export function clientSite(ip: string): string {
  const plain = plainIPv4(ip);
  if (plain) return plain.join('.');
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 3);
  return `${parts.map((p) => p.toString(16)).join(':')}::/48`;
}
