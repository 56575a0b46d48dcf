import zlib from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { cachedBody, type BodySource } from '../src/server/lib/cached-body';
import { ResponseCache } from '../src/server/lib/response-cache';
import { Card, CARD_DIGEST_BYTES } from '../src/server/modules/servers/card';
import { CardCache } from '../src/server/modules/servers/card-cache';
import { encodeCard, viewOf } from '../src/server/modules/servers/card-codec';
import { listDigest, listSource, type PageRanks } from '../src/server/modules/servers/list-body';
import { NO_GAME, RANK_FIELDS } from '../src/server/modules/servers/search-index.ranks';

/** A load that counts its calls and answers `value`, optionally only when released. */
function counted<T>(value: () => T) {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    load: () => {
      calls++;
      return Promise.resolve(value());
    },
  };
}

/** A load whose first call waits for `release`; later calls answer `later` at once. */
function gatedLoad(later: string) {
  const gate = deferred<string>();
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    release: gate.resolve,
    load: () => (++calls === 1 ? gate.promise : Promise.resolve(later)),
  };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('response cache drops only what a change shows', () => {
  it('keeps an answer until a tag it carries is dropped, and only that answer', async () => {
    const cache = new ResponseCache<string>(60_000);
    const a = counted(() => 'a');
    const b = counted(() => 'b');
    const get = () => Promise.all([cache.get('a', a.load, () => ['server:1', 'sort:likes']), cache.get('b', b.load, () => ['server:2'])]);
    expect(await get()).toEqual(['a', 'b']);
    expect(await get()).toEqual(['a', 'b']);
    expect([a.calls, b.calls]).toEqual([1, 1]);

    cache.dropTags(['server:3', 'sort:new']);
    await get();
    expect([a.calls, b.calls]).toEqual([1, 1]);

    cache.dropTags(['server:1']);
    await get();
    expect([a.calls, b.calls]).toEqual([2, 1]);

    cache.dropTags(['sort:likes']);
    cache.dropTags(['server:2']);
    await get();
    expect([a.calls, b.calls]).toEqual([3, 2]);
    // Made after those drops: current again.
    await get();
    expect([a.calls, b.calls]).toEqual([3, 2]);
  });

  it('does not keep an answer that was loading when something it shows was dropped', async () => {
    const cache = new ResponseCache<string>(60_000);
    const gated = gatedLoad('after');
    const first = cache.get('k', gated.load, () => ['server:1']);
    cache.dropTags(['server:1']);
    // A caller after the drop does not wait for the load that may show what changed.
    expect(await cache.get('k', gated.load, () => ['server:1'])).toBe('after');
    gated.release('before');
    expect(await first).toBe('before');
    expect(await cache.get('k', gated.load, () => ['server:1'])).toBe('after');
    expect(gated.calls).toBe(2);
  });

  it('keeps an answer that was loading when something else was dropped', async () => {
    const cache = new ResponseCache<string>(60_000);
    const gated = gatedLoad('again');
    const first = cache.get('k', gated.load, () => ['server:1']);
    cache.dropTags(['server:2']);
    gated.release('kept');
    expect(await first).toBe('kept');
    expect(await cache.get('k', gated.load, () => ['server:1'])).toBe('kept');
    expect(gated.calls).toBe(1);
  });

  it('forgets old drops and stays right under a storm of changes', async () => {
    const cache = new ResponseCache<string>(60_000, 10);
    const a = counted(() => 'a');
    // Drops before an answer was made are forgotten without touching it.
    for (let i = 1; i <= 60_000; i++) cache.dropTags([`server:${i}`]);
    await cache.get('a', a.load, () => ['server:0']);
    for (let i = 1; i <= 10_000; i++) cache.dropTags([`server:${i}`]);
    await cache.get('a', a.load, () => ['server:0']);
    expect(a.calls).toBe(1);
    // More changes within one TTL than it remembers: it starts afresh (one more load), never serves stale.
    for (let i = 1; i <= 60_000; i++) cache.dropTags([`server:${i}`]);
    await cache.get('a', a.load, () => ['server:0']);
    expect(a.calls).toBeLessThanOrEqual(2);
    const before = a.calls;
    cache.dropTags(['server:0']);
    await cache.get('a', a.load, () => ['server:0']);
    expect(a.calls).toBe(before + 1);
  });

  it('remembers one to two TTLs of drops under a steady stream of them, and stays right', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const cache = new ResponseCache<string>(1_000);
      const a = counted(() => 'a');
      const tags = () => ['server:0'];
      // A vote campaign: a thousand servers' tags dropped every half TTL, for ten TTLs.
      for (let step = 0; step < 20; step++) {
        await cache.get('a', a.load, tags);
        for (let i = 0; i < 1_000; i++) cache.dropTags([`server:${1 + step * 1_000 + i}`]);
        vi.advanceTimersByTime(500);
      }
      // Each TTL reloaded the answer once; the drops of other servers never did.
      expect(a.calls).toBe(10);
      // 20,000 tags dropped; what is remembered is at most the drops since the last prune and a TTL before it.
      expect(cache.droppedTags).toBeLessThanOrEqual(4_000);
      // A drop of what it shows still sends the next caller to a fresh load.
      await cache.get('a', a.load, tags);
      const before = a.calls;
      cache.dropTags(['server:0']);
      for (let i = 0; i < 3_000; i++) cache.dropTags([`server:${100_000 + i}`]);
      expect(await cache.get('a', a.load, tags)).toBe('a');
      expect(a.calls).toBe(before + 1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps, across a prune, the drops a refresh under way must still be measured against', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const cache = new ResponseCache<string>(1_000);
      const later = deferred<string>();
      let calls = 0;
      const load = () => (++calls === 1 ? Promise.resolve('old') : later.promise);
      // The newer answer shows one more server than the old one did.
      const tagsOf = (value: string) => (value === 'old' ? ['server:1'] : ['server:1', 'server:99']);
      await cache.get('k', load, tagsOf);
      expect(cache.peek('k')).toBe('old');
      vi.advanceTimersByTime(600);
      // Read, so refreshed in the background; server 99 changes while that load is out.
      cache.refreshTags(['server:1']);
      cache.dropTags(['server:99']);
      // Enough other drops for a prune while the refresh is still out.
      for (let i = 0; i < 3_000; i++) cache.dropTags([`server:${1_000 + i}`]);
      later.resolve('new');
      await later.promise;
      await Promise.resolve();
      // The refresh read server 99 from before its change: not kept.
      expect(cache.peek('k')).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it('with keepFromSecondAsk, keeps an answer only once its key is asked for again', async () => {
    const cache = new ResponseCache<string>(60_000, 10, { keepFromSecondAsk: true });
    const a = counted(() => 'a');
    await cache.get('a', a.load, () => []);
    expect(cache.size).toBe(0);
    await cache.get('a', a.load, () => []);
    await cache.get('a', a.load, () => []);
    expect(a.calls).toBe(2);
    expect(cache.size).toBe(1);

    // Callers asking while the first load runs still share it.
    const gate = deferred<string>();
    let calls = 0;
    const load = () => {
      calls++;
      return gate.promise;
    };
    const both = Promise.all([cache.get('b', load, () => []), cache.get('b', load, () => [])]);
    gate.resolve('b');
    expect(await both).toEqual(['b', 'b']);
    expect(calls).toBe(1);
  });

  it('holds: true only for a kept, loaded, current answer, and asking so is not a read', async () => {
    const cache = new ResponseCache<string>(60_000, 10, { keepFromSecondAsk: true });
    const tags = () => ['server:7'];
    const gate = deferred<string>();
    const loading = cache.get('h', () => gate.promise, tags);
    expect(cache.holds('h')).toBe(false);
    gate.resolve('once');
    await loading;
    // Loaded for one ask: not kept.
    expect(cache.holds('h')).toBe(false);
    await cache.get('h', () => Promise.resolve('kept'), tags);
    expect(cache.holds('h')).toBe(true);
    // Not a read: a refresh of its tags drops an answer nobody read (a read one stays, answered
    // while it loads again).
    cache.refreshTags(['server:7']);
    expect(cache.holds('h')).toBe(false);
    // A dropped key starts again from its first ask: kept from the second.
    for (let ask = 0; ask < 2; ask++) await cache.get('h', () => Promise.resolve('again'), tags);
    expect(cache.holds('h')).toBe(true);
    cache.dropTags(['server:7']);
    expect(cache.holds('h')).toBe(false);
    expect(cache.holds('never asked')).toBe(false);
  });

  it('with keepFromSecondAsk, a change while a first ask loads sends later callers to a fresh load', async () => {
    const cache = new ResponseCache<string>(60_000, 10, { keepFromSecondAsk: true });
    const gate = deferred<string>();
    let calls = 0;
    const first = cache.get(
      'c',
      () => (calls++, gate.promise),
      () => ['server:1'],
    );
    cache.dropTags(['server:1']);
    const second = cache.get(
      'c',
      () => (calls++, Promise.resolve('c2')),
      () => ['server:1'],
    );
    gate.resolve('c1');
    expect([await first, await second]).toEqual(['c1', 'c2']);
    expect(calls).toBe(2);
    // The second ask was kept, the stale first one was not.
    expect(cache.peek('c')).toBe('c2');
  });

  it('holds at most its size and nothing after the TTL', async () => {
    const cache = new ResponseCache<number>(60_000, 3);
    const loads = [0, 1, 2, 3].map((i) => counted(() => i));
    for (const [i, l] of loads.entries()) await cache.get(String(i), l.load, () => []);
    expect(cache.size).toBe(3);
    await cache.get('0', loads[0]!.load, () => []);
    expect(loads[0]!.calls).toBe(2);

    const none = new ResponseCache<number>(0);
    const z = counted(() => 1);
    await none.get('x', z.load, () => []);
    await none.get('x', z.load, () => []);
    expect(z.calls).toBe(2);
  });
});

describe('quick bodies', () => {
  it('compress to the same JSON as the default ones', () => {
    const json = JSON.stringify(Array.from({ length: 24 }, (_, i) => ({ id: i, name: `City ${i} RP`, bio: 'A roleplay community.' })));
    const quick = cachedBody(json, { quick: true });
    expect(zlib.brotliDecompressSync(quick.encoded('br')).toString()).toBe(json);
    expect(zlib.gunzipSync(quick.encoded('gzip')).toString()).toBe(json);
    expect(quick.etag).toBe(cachedBody(json).etag);
  });
});

/** A body written on demand that counts how often it was written. */
function countedSource(json: string): BodySource & { writes: number } {
  const bytes = Buffer.from(json);
  return {
    writes: 0,
    byteLength: bytes.length,
    writeTo(out) {
      this.writes++;
      bytes.copy(out);
    },
  };
}

const listJson = (n: number, tag: string) =>
  JSON.stringify(Array.from({ length: n }, (_, i) => ({ id: i, name: `${tag} ${i} RP`, bio: `A roleplay community, ${tag}.` })));

describe('bodies written on demand', () => {
  it('send the same bytes plain and compressed, and are written for compressing without a copy of their own', () => {
    const json = listJson(24, 'City');
    const source = countedSource(json);
    const body = cachedBody(source, { quick: true, digest: 'd1' });
    expect(body.etag).toBe('"d1"');
    expect(body.byteLength).toBe(Buffer.byteLength(json));
    expect(body.compressible).toBe(true);
    expect(zlib.brotliDecompressSync(body.encoded('br')).toString()).toBe(json);
    expect(zlib.gunzipSync(body.encoded('gzip')).toString()).toBe(json);
    // Each encoding once, then kept.
    body.encoded('br');
    expect(source.writes).toBe(2);
    expect(body.raw.toString()).toBe(json);
    expect(body.raw).toBe(body.raw);
    expect(source.writes).toBe(3);
  });

  it('stay right when other bodies are written in between', () => {
    const first = cachedBody(countedSource(listJson(30, 'Alpha')), { quick: true, digest: 'a' });
    const second = cachedBody(countedSource(listJson(10, 'Beta')), { quick: true, digest: 'b' });
    const firstBr = first.encoded('br');
    const secondBr = second.encoded('br');
    expect(zlib.brotliDecompressSync(firstBr).toString()).toBe(listJson(30, 'Alpha'));
    expect(zlib.gunzipSync(first.encoded('gzip')).toString()).toBe(listJson(30, 'Alpha'));
    expect(zlib.brotliDecompressSync(secondBr).toString()).toBe(listJson(10, 'Beta'));
    expect(second.raw.toString()).toBe(listJson(10, 'Beta'));
  });

  it('take a body bigger than the reused buffer', () => {
    const json = listJson(2000, 'Huge');
    expect(Buffer.byteLength(json)).toBeGreaterThan(64 * 1024);
    const body = cachedBody(countedSource(json), { quick: true, digest: 'h' });
    expect(zlib.gunzipSync(body.encoded('gzip')).toString()).toBe(json);
  });

  it('need a digest for their ETag', () => {
    expect(() => cachedBody(countedSource('[]'))).toThrow(/digest/);
  });
});

describe('bodies of every kind', () => {
  // V8 keeps whatever an object with a getter of its own reaches (cards, compressed bytes) alive
  // through young collections until a full one: every uncached search's answer reached the old
  // generation that way (docs/decisions/046-no-literal-getters.md).
  it('carry no getter or setter of their own, and still give their length and bytes', () => {
    const bodies = [
      cachedBody('{"a":1}'),
      cachedBody(listJson(24, 'Text')),
      cachedBody(Buffer.from(listJson(24, 'Bytes'))),
      cachedBody(countedSource(listJson(24, 'Source')), { quick: true, digest: 's' }),
    ];
    for (const body of bodies) {
      const own = Object.values(Object.getOwnPropertyDescriptors(body));
      expect(own.filter((d) => d.get !== undefined || d.set !== undefined)).toEqual([]);
      expect(body.byteLength).toBe(Buffer.byteLength(body.raw));
      if (body.compressible) expect(zlib.gunzipSync(body.encoded('gzip')).toString()).toBe(body.raw.toString());
    }
  });
});

describe('compressed bytes', () => {
  it('hold no buffer much bigger than themselves', () => {
    const json = listJson(24, 'Town');
    for (const encoding of ['br', 'gzip'] as const) {
      // Kept answers: a buffer of exactly their size.
      const kept = cachedBody(json).encoded(encoding);
      expect(kept.buffer.byteLength).toBe(kept.length);
      // One-off answers: at most a slab of Node's small-buffer pool, never the default 16 KB chunk.
      const quick = cachedBody(json, { quick: true }).encoded(encoding);
      expect(quick.length).toBeLessThan(4096);
      expect(quick.buffer.byteLength).toBeLessThanOrEqual(Buffer.poolSize);
    }
  });
});

describe('list answers from cards', () => {
  const card = (id: number, json: string) => {
    // Coded as the card cache holds it, somewhere inside a bigger buffer, as held cards lie in their chunk.
    const bytes = encodeCard(json);
    const chunk = Buffer.concat([Buffer.from('xx'), Buffer.alloc(CARD_DIGEST_BYTES, id), bytes, Buffer.from('yy')]);
    return new Card(id, chunk, viewOf(chunk), 2, CARD_DIGEST_BYTES + bytes.length, Buffer.byteLength(json));
  };

  interface ShownRank {
    position: number;
    of: number;
    game: { name: string; position: number; of: number } | null;
  }
  /** Ranks as the list writes them, from what each should read as (null: not listed). */
  const pageRanks = (ranks: Array<ShownRank | null>): PageRanks => {
    const values = new Int32Array(ranks.length * RANK_FIELDS);
    ranks.forEach((rank, i) => {
      if (!rank) return;
      values.set([rank.position, rank.of, rank.game ? 7 : NO_GAME, rank.game?.position ?? 0, rank.game?.of ?? 0], i * RANK_FIELDS);
    });
    return { values, gameNames: ranks.map((rank) => (rank?.game ? Buffer.from(JSON.stringify(rank.game.name)) : null)) };
  };

  it('are the cards as a JSON array, each with its rank written as JSON.stringify writes it', () => {
    const ranks: Array<ShownRank | null> = [
      { position: 1, of: 2, game: null },
      null,
      { position: 9, of: 10, game: { name: 'Grand "Theft" Auto V — ünïcode 🚓', position: 99, of: 100 } },
      { position: 99_999, of: 100_000, game: { name: 'RedM', position: 1_000_000, of: 2_147_483_647 } },
    ];
    const cards = [
      // The words held as codes, also where a string holds them.
      card(1, JSON.stringify({ id: 1, name: 'Ünïcode City 🚓', discordLink: null, bio: 'a null, "name": or ,"bio":' })),
      card(2, '{"id":2,"name":"B"}'),
      card(3, '{"id":3}'),
      card(4, '{"id":4}'),
    ];
    const source = listSource(cards, pageRanks(ranks));
    const body = cachedBody(source, { digest: 'x' });
    const expected = [
      { id: 1, name: 'Ünïcode City 🚓', discordLink: null, bio: 'a null, "name": or ,"bio":', rank: ranks[0] },
      { id: 2, name: 'B', rank: null },
      { id: 3, rank: ranks[2] },
      { id: 4, rank: ranks[3] },
    ];
    expect(body.raw.toString()).toBe(JSON.stringify(expected));
    expect(body.byteLength).toBe(body.raw.length);
    expect(JSON.parse(cachedBody(listSource([], pageRanks([])), { digest: 'e' }).raw.toString())).toEqual([]);
  });

  it('have one ETag for the same cards and ranks, wherever the cards lie, and another when either changes', () => {
    const a = card(1, '{"id":1}');
    const b = card(2, '{"id":2}');
    const inGame = (name: string, position = 2): ShownRank => ({ position, of: 5, game: { name, position: 1, of: 3 } });
    const ranks = pageRanks([{ position: 1, of: 5, game: null }, inGame('RedM')]);
    const digest = listDigest([a, b], ranks);
    const elsewhere = Buffer.concat([Buffer.alloc(7), b.chunk.subarray(b.offset, b.offset + b.length)]);
    const bElsewhere = new Card(2, elsewhere, viewOf(elsewhere), 7, b.length, b.jsonLength);
    expect(listDigest([a, bElsewhere], ranks)).toBe(digest);
    expect(listDigest([b, a], ranks)).not.toBe(digest);
    expect(listDigest([a, b], pageRanks([{ position: 1, of: 5, game: null }, inGame('RedM', 3)]))).not.toBe(digest);
    // The game renamed: the same numbers, another answer.
    expect(listDigest([a, b], pageRanks([{ position: 1, of: 5, game: null }, inGame('RedM 2')]))).not.toBe(digest);
    expect(listDigest([a, b], pageRanks([null, inGame('RedM')]))).not.toBe(digest);
    const bChanged = card(2, '{"id":2}');
    bChanged.chunk.writeUInt8(bChanged.chunk.readUInt8(bChanged.offset + 5) ^ 1, bChanged.offset + 5);
    expect(listDigest([a, bChanged], ranks)).not.toBe(digest);
    expect(listDigest([], pageRanks([]))).toBe(listDigest([], pageRanks([])));
  });
});

describe('card cache', () => {
  const loader = () => {
    const asked: number[][] = [];
    return {
      asked,
      load: (ids: number[]) => {
        asked.push(ids);
        return Promise.resolve(new Map(ids.map((id) => [id, `{"id":${id}}`])));
      },
    };
  };

  it('reads only the cards it does not hold, in the order asked', async () => {
    const cards = new CardCache(60_000);
    const l = loader();
    await cards.cards([1, 2], l.load);
    const out = await cards.cards([3, 2, 1], l.load);
    expect(out.map((c) => c.id)).toEqual([3, 2, 1]);
    expect(l.asked).toEqual([[1, 2], [3]]);
  });

  it('names what the refresher should read: missing cards, and ageing ones oldest first', async () => {
    const cards = new CardCache(60_000);
    const l = loader();
    const listed = Array.from({ length: 10 }, (_, i) => i + 1);
    expect(cards.missing(listed)).toEqual(listed);
    await cards.refresh([3, 1, 2], l.load);
    await cards.refresh([4, 5, 6, 7, 8, 9, 10], l.load);
    expect(cards.missing(listed)).toEqual([]);
    expect(cards.size).toBe(10);
    await cards.cards(listed, l.load);
    expect(l.asked).toHaveLength(2);
    expect(cards.ageing(30_000, 5)).toEqual([]);
    expect(cards.ageing(-1, 5)).toEqual([3, 1, 2, 4, 5]);
    // Read again: now the youngest.
    await cards.refresh([3], l.load);
    expect(cards.ageing(-1, 3)).toEqual([1, 2, 4]);
  });

  it('does not keep a card dropped while it was being read, and keeps the others', async () => {
    const cards = new CardCache(60_000);
    const gate = deferred<void>();
    const load = async (ids: number[]) => {
      await gate.promise;
      return new Map(ids.map((id) => [id, `{"id":${id},"old":true}`]));
    };
    const reading = cards.refresh([1, 2], load);
    cards.drop([1]);
    gate.resolve();
    await reading;
    expect(cards.missing([1, 2])).toEqual([1]);
  });

  it('keeps nothing read across a clear', async () => {
    const cards = new CardCache(60_000);
    const gate = deferred<void>();
    const reading = cards.cards([1, 2], async (ids) => {
      await gate.promise;
      return new Map(ids.map((id) => [id, '{}']));
    });
    cards.clear();
    gate.resolve();
    expect((await reading).length).toBe(2);
    expect(cards.size).toBe(0);
  });
});
