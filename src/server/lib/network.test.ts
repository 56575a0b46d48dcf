import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { clientKey, clientNetwork, clientSite } from './network';

describe('clientNetwork', () => {
  it.each([
    ['203.0.113.7', '203.0.113.0/24'],
    ['203.0.113.250', '203.0.113.0/24'],
    ['::ffff:203.0.113.9', '203.0.113.0/24'],
    ['2001:db8:1:2:aaaa::1', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['::1', '0:0:0:0::/64'],
  ])('%s belongs to %s', (ip, network) => {
    expect(clientNetwork(ip)).toBe(network);
  });

  it('keeps something that is not an address as it is', () => {
    expect(clientNetwork('unknown')).toBe('unknown');
  });
});

describe('clientKey', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff::9', '2001:db8:1:2::/64'],
  ])('%s is counted as %s', (ip, key) => {
    expect(clientKey(ip)).toBe(key);
  });
});

/** What each function answers through ipaddr.js alone, for every spelling it reads. */
const byIpaddr = {
  network(ip: string): string {
    if (!ipaddr.isValid(ip)) return ip;
    const address = ipaddr.process(ip);
    if (address.kind() === 'ipv4') return `${(address as ipaddr.IPv4).octets.slice(0, 3).join('.')}.0/24`;
    return `${(address as ipaddr.IPv6).parts
      .slice(0, 4)
      .map((p) => p.toString(16))
      .join(':')}::/64`;
  },
  key(ip: string): string {
    if (!ipaddr.isValid(ip)) return ip;
    const address = ipaddr.process(ip);
    return address.kind() === 'ipv4' ? address.toString() : byIpaddr.network(ip);
  },
  site(ip: string): string {
    if (!ipaddr.isValid(ip)) return ip;
    const address = ipaddr.process(ip);
    if (address.kind() === 'ipv4') return address.toString();
    return `${(address as ipaddr.IPv6).parts
      .slice(0, 3)
      .map((p) => p.toString(16))
      .join(':')}::/48`;
  },
};

describe('an address read without ipaddr.js (plain IPv4) and with it', () => {
  // Octets as sockets write them, and as an attacker might: leading zeros (octal to ipaddr.js),
  // hex, too large, too few or too many parts, signs, spaces, a zone, the mapped prefix in capitals.
  const octet = fc.oneof(
    fc.integer({ min: 0, max: 255 }).map(String),
    fc.integer({ min: 0, max: 255 }).map((n) => `0${n}`),
    fc.integer({ min: 0, max: 255 }).map((n) => `0x${n.toString(16)}`),
    fc.integer({ min: 256, max: 99_999 }).map(String),
    fc.constantFrom('', '-1', '+1', ' 1', '1 ', '00', '1e2', '٣'),
  );
  const spelling = fc.oneof(
    fc.array(octet, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('.')),
    fc
      .tuple(fc.constantFrom('::ffff:', '::FFFF:', '::ffff:0:', '::'), fc.array(octet, { minLength: 4, maxLength: 4 }))
      .map(([prefix, parts]) => prefix + parts.join('.')),
    fc
      .tuple(fc.array(octet, { minLength: 4, maxLength: 4 }), fc.constantFrom('%eth0', '/24', ':80', '.'))
      .map(([parts, tail]) => parts.join('.') + tail),
    fc.ipV4(),
    fc.ipV4Extended(),
    fc.ipV6(),
    fc.string(),
  );

  it('gives the same network, key and site for every spelling', () => {
    fc.assert(
      fc.property(spelling, (ip) => {
        expect(clientNetwork(ip)).toBe(byIpaddr.network(ip));
        expect(clientKey(ip)).toBe(byIpaddr.key(ip));
        expect(clientSite(ip)).toBe(byIpaddr.site(ip));
      }),
      { numRuns: 5_000 },
    );
  });

  it.each([
    ['010.0.0.1', '8.0.0.0/24'],
    ['0x7f.1', '127.0.0.0/24'],
    ['127.1', '127.0.0.0/24'],
    ['::ffff:010.1.2.3', '10.1.2.0/24'],
  ])('reads %s as ipaddr.js does (%s)', (ip, network) => {
    expect(clientNetwork(ip)).toBe(network);
  });
});
