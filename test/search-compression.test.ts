import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuickBrotliOptions } from '../src/server/lib/quick-brotli';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser } from './helpers/factories';
import { quickBrotli } from '../src/server/lib/cached-body';

let t: TestApp;
let tuned: QuickBrotliOptions;
beforeAll(async () => {
  // The app's requests here come back from the database one or two a turn, not the 8 of a busy
  // instance: a turn of two starts the thread.
  tuned = quickBrotli.tune({ busyTurn: 2 });
  t = await createTestApp();
  const owner = await createUser(t.app, { role: 'server_owner' });
  // Pages of 20–50 servers: answers well above the compression threshold.
  for (let i = 0; i < 60; i++) await createServer(t.app, owner.row.id, { currentPlayers: i % 7 });
});
afterAll(async () => {
  quickBrotli.tune(tuned);
  await t.close();
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('searches asked once, compressed beside the event loop', () => {
  it('a burst of them is answered in brotli handed to the compression thread: each the same JSON and ETag as its plain answer', async () => {
    const sorts = ['likes', 'new', 'players', 'popular'];
    // 1,240 different lists (sort, size and offset): each asked for once, so each answer is made for it alone.
    const all = sorts.flatMap((sort) =>
      Array.from({ length: 310 }, (_, k) => `/api/servers?sort=${sort}&limit=${20 + (k % 31)}&offset=${Math.floor(k / 31)}`),
    );
    let round = 0;
    const before = quickBrotli.handedOver;
    const deadline = Date.now() + 15_000;
    do {
      const list = all.filter((_, k) => k % 30 === round);
      const compressed = await Promise.all(list.map((u) => get(u, { 'accept-encoding': 'gzip, deflate, br' })));
      const plain = await Promise.all(list.map((u) => get(u)));
      compressed.forEach((res, i) => {
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding'], `${list[i]} ${plain[i]!.body.length}`).toBe('br');
        expect(res.headers.etag).toBe(plain[i]!.headers.etag);
        expect(res.headers['x-total-count']).toBe('60');
        expect(JSON.parse(zlib.brotliDecompressSync(res.rawPayload).toString())).toEqual(plain[i]!.json());
      });
      round++;
    } while (quickBrotli.handedOver - before < 40 && round < 30 && Date.now() < deadline);
    // Answers went through the thread's shared memory (which side compressed each is the thread's
    // own tests' business: here both give the same bytes).
    expect(quickBrotli.handedOver - before).toBeGreaterThanOrEqual(40);
  });

  it('answers a client holding the bytes with 304, and gzip on the event loop when brotli is not accepted', async () => {
    const url = '/api/servers?sort=new&limit=33&offset=1';
    const first = await get(url, { 'accept-encoding': 'br' });
    expect(first.headers['content-encoding']).toBe('br');
    const again = await get(url, { 'accept-encoding': 'br', 'if-none-match': first.headers.etag as string });
    expect(again.statusCode).toBe(304);
    const gzip = await get('/api/servers?sort=new&limit=34&offset=1', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gzip.rawPayload).toString())).toHaveLength(34);
  });
});
