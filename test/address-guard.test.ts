import { describe, expect, it } from 'vitest';
import {
  AddressRefused,
  checkTarget,
  isPublicAddress,
  LOOKUP_TIMEOUT_MS,
  LOOKUPS_AT_ONCE,
  resolvePublicAddress,
  type HostLookup,
} from '../src/server/adapters/address-guard';
import { MSG } from '../src/shared/messages';
import { REFUSED_SPELLINGS, tableLookup } from './helpers/address-spellings';

const PUBLIC = ['1.1.1.1', '8.8.8.8', '2606:4700:4700::1111', '[2606:4700:4700::1111]', '64:ff9b::808:808', '2002:808:808::1'];

const lookup = tableLookup({
  'mixed.example': ['8.8.8.8', '10.0.0.1'],
  'mixed6.example': ['2606:4700:4700::1111', '::1'],
  'mapped.example': ['::ffff:127.0.0.1'],
  'metadata.example': ['169.254.169.254'],
  'empty.example': [],
  'play.example': ['1.1.1.1', '2606:4700:4700::1111'],
  // A resolver that lies about localhost must not matter.
  localhost: ['1.1.1.1'],
  'game.localhost': ['1.1.1.1'],
});

describe('the address guard', () => {
  it.each(REFUSED_SPELLINGS)('refuses %s as a bare host and as the host of a URL', async (host) => {
    await expect(resolvePublicAddress(host, 30120, { lookup })).rejects.toBeInstanceOf(AddressRefused);
    let urlHost: string | undefined;
    try {
      const bracketed = host.includes(':') && !host.startsWith('[') && !host.includes('/') ? `[${host}]` : host;
      urlHost = new URL(`http://${bracketed}/`).hostname;
    } catch {
      // Not a URL host either: nothing to check in that form.
    }
    if (urlHost !== undefined) await expect(resolvePublicAddress(urlHost, 30120, { lookup })).rejects.toBeInstanceOf(AddressRefused);
  });

  it('refuses a name when any of its addresses is not public, and says why', async () => {
    for (const name of ['mixed.example', 'mixed6.example', 'mapped.example', 'metadata.example']) {
      await expect(resolvePublicAddress(name, 30120, { lookup }), name).rejects.toThrow(MSG.gameHostPrivate);
    }
    await expect(resolvePublicAddress('empty.example', 30120, { lookup })).rejects.toThrow(MSG.gameHostUnresolved);
    await expect(resolvePublicAddress('nowhere.example', 30120, { lookup })).rejects.toThrow(MSG.gameHostUnresolved);
    await expect(resolvePublicAddress('bad host!', 30120, { lookup })).rejects.toThrow(MSG.gameHostInvalid);
    await expect(resolvePublicAddress('0x7f.1', 30120, { lookup })).rejects.toThrow(MSG.gameHostPrivate);
  });

  it('lets public addresses through, answering the address to connect to', async () => {
    for (const ip of PUBLIC) expect(await resolvePublicAddress(ip, 30120), ip).toBe(ip.replace(/^\[|\]$/g, ''));
    expect(await resolvePublicAddress('::ffff:8.8.8.8', 30120)).toBe('8.8.8.8');
    expect(await resolvePublicAddress('PLAY.example.', 30120, { lookup })).toBe('1.1.1.1');
    for (const ip of ['1.1.1.1', '8.8.8.8', '2606:4700:4700::1111', '93.184.216.34']) expect(isPublicAddress(ip), ip).toBe(true);
    // Only standard notation is an IP for this check; other spellings go through resolvePublicAddress.
    for (const odd of ['2130706433', '127.1', '0x7f.1', 'example.com', '']) expect(isPublicAddress(odd), odd).toBe(false);
  });

  it('lets a test through to exactly the loopback ip:port it names, and nowhere else', async () => {
    const allowTargets = ['127.0.0.1:40001', '[::1]:40002'];
    expect(await resolvePublicAddress('127.0.0.1', 40001, { allowTargets })).toBe('127.0.0.1');
    expect(await resolvePublicAddress('[::1]', 40002, { allowTargets })).toBe('::1');
    expect(checkTarget('0:0:0:0:0:0:0:1', 40002, { allowTargets })).toBe('::1');
    for (const [host, port] of [
      ['127.0.0.1', 40002],
      ['127.0.0.2', 40001],
      ['::ffff:127.0.0.1', 40001],
      ['10.0.0.1', 40001],
      ['localhost', 40001],
    ] as const) {
      await expect(resolvePublicAddress(host, port, { allowTargets, lookup }), `${host}:${port}`).rejects.toBeInstanceOf(AddressRefused);
    }
    // The switch cannot open private networks, even by mistake.
    expect(() => checkTarget('10.0.0.1', 80, { allowTargets: ['10.0.0.1:80'] })).toThrow(/loopback ip:port/);
    expect(() => checkTarget('127.0.0.1', 80, { allowTargets: ['127.0.0.1'] })).toThrow(/loopback ip:port/);
  });

  it("holds at most two of a resolver's lookups in flight: names that never resolve cannot take every worker thread", async () => {
    let started = 0;
    const stuck: Array<() => void> = [];
    const never: HostLookup = () => {
      started++;
      return new Promise((_, reject) => stuck.push(() => reject(new Error('gave up'))));
    };
    const asks = Array.from({ length: 6 }, (_, i) =>
      resolvePublicAddress(`stuck${i}.example`, 30120, { lookup: never, lookupTimeoutMs: 150 }).then(
        () => 'resolved',
        (error: unknown) => (error instanceof AddressRefused ? error.message : String(error)),
      ),
    );
    expect(await Promise.all(asks)).toEqual(Array(6).fill(MSG.gameHostUnresolved));
    // Two reached the resolver; the others waited for a slot within their time limit, then gave up.
    expect(started).toBe(LOOKUPS_AT_ONCE);
    // Another resolver is not held up by this one's.
    expect(await resolvePublicAddress('play.example', 30120, { lookup })).toBe('1.1.1.1');
    // Once the resolver itself gives up, its slots are free again.
    for (const fail of stuck.splice(0)) fail();
    await new Promise((resolve) => setTimeout(resolve, 10));
    await resolvePublicAddress('again.example', 30120, { lookup: never, lookupTimeoutMs: 150 }).catch(() => undefined);
    expect(started).toBe(LOOKUPS_AT_ONCE + 1);
    for (const fail of stuck.splice(0)) fail();
  });

  it('gives up on a resolver that never answers, within its time limit', async () => {
    const silent = () => new Promise<never>(() => undefined);
    const started = Date.now();
    await expect(resolvePublicAddress('slow.example', 30120, { lookup: silent, lookupTimeoutMs: 200 })).rejects.toThrow(
      MSG.gameHostUnresolved,
    );
    expect(Date.now() - started).toBeLessThan(1000);
    // The default limit holds too (a save, a poll or a delivery waits seconds, not forever).
    const defaultStart = Date.now();
    await expect(resolvePublicAddress('slow.example', 30120, { lookup: silent })).rejects.toThrow(MSG.gameHostUnresolved);
    expect(Date.now() - defaultStart).toBeLessThan(LOOKUP_TIMEOUT_MS + 1000);
  });
});
