import ipaddr from 'ipaddr.js';

/**
 * The network a client address belongs to, as abuse limits see it: an IPv4 /24 or an IPv6 /64.
 * One household, office or cloud tenant usually owns a whole /64, so counting IPv6 clients per
 * address would give each of them billions of fresh identities. IPv4-mapped IPv6 counts as IPv4.
 */
export function clientNetwork(ip: string): string {
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
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 3);
  return `${parts.map((p) => p.toString(16)).join(':')}::/48`;
}
