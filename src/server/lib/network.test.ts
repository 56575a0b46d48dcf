import { describe, expect, it } from 'vitest';
import { clientKey, clientNetwork } from './network';

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
