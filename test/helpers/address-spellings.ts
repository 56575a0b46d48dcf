import type { HostLookup } from '../../src/server/adapters/address-guard';

/** Every way of writing a private, loopback or reserved target that the guard must see through. */
export const REFUSED_SPELLINGS = [
  // loopback, spelled every way WHATWG URLs, inet_aton and IPv6 allow
  '127.0.0.1',
  '127.0.0.1.',
  '0177.0.0.1',
  '2130706433',
  '017700000001',
  '127.1',
  '0x7f.1',
  '0x7f000001',
  '0x7f.0.0.1',
  '::1',
  '[::1]',
  '0:0:0:0:0:0:0:1',
  '0:0:0:0:0:ffff:7f00:1',
  '::ffff:127.0.0.1',
  '[::ffff:127.0.0.1]',
  '::ffff:7f00:1',
  '::7f00:1',
  '::127.0.0.1',
  '::ffff:0:7f00:1',
  '64:ff9b::7f00:1',
  '64:ff9b:0:0:0:0:7f00:1',
  '64:ff9b::127.0.0.1',
  '64:ff9b:1::7f00:1',
  '64:ff9b:1::808:808',
  '2002:7f00:1::',
  '2002:7f00:1::1',
  '2001:0:4136:e378:8000:63bf:80ff:fffe',
  'localhost',
  'LOCALHOST.',
  'LocalHost',
  'game.localhost',
  // unspecified
  '0',
  '0.0.0.0',
  '::',
  '[::]',
  // link-local and cloud metadata
  '169.254.169.254',
  '0xa9.0xfe.0xa9.0xfe',
  '0251.0376.0251.0376',
  '2852039166',
  '::ffff:169.254.169.254',
  '64:ff9b::a9fe:a9fe',
  '2002:a9fe:a9fe::',
  'fe80::1',
  // private and shared
  '10.0.0.1',
  '012.0.0.1',
  '172.16.0.1',
  '172.31.255.255',
  '192.168.1.1',
  '100.64.0.1',
  '::ffff:10.0.0.1',
  '::ffff:a00:1',
  '64:ff9b::a00:1',
  '2002:c0a8:101::',
  'fd00::1',
  'fc00::1',
  'fec0::1',
  // multicast, broadcast, documentation, benchmarking, reserved
  '224.0.0.1',
  '255.255.255.255',
  '240.0.0.1',
  '192.0.2.1',
  '198.18.0.1',
  '192.0.0.1',
  'ff02::1',
  '2001:db8::1',
  '100::1',
  '1::1',
  // not a host at all, or a host with something around it that could change its meaning
  '127.0.0.1:80',
  '[::1]:80',
  'user@127.0.0.1',
  'http://127.0.0.1',
  '127.0.0.1/x',
  '%31%32%37.0.0.1',
  'fe80::1%eth0',
  '1.2.3.4.5',
  'bad host!',
  'a..b',
  'under_score.example',
];

/** A resolver from a table; unknown names do not resolve (nothing leaves the machine). */
export function tableLookup(table: Record<string, string[]>): HostLookup {
  return async (name) => {
    const answers = table[name.replace(/\.$/, '')];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    return answers.map((address) => ({ address }));
  };
}
