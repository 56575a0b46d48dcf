import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardShowsRow } from '../src/server/modules/servers/card-figures';
import { searchIndexRepository } from '../src/server/modules/servers/search-index.repository';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser } from './helpers/factories';

let t: TestApp;
const ids: number[] = [];
beforeAll(async () => {
  // Lists held briefly and cards kept, as in production.
  t = await createTestApp({ build: { listCacheTtlMs: 200 } });
  const owner = await createUser(t.app, { role: 'server_owner' });
  ids.push((await createServer(t.app, owner.row.id, { name: 'Figures Never Polled RP' })).id);
  ids.push((await createServer(t.app, owner.row.id, { name: 'Figures Polled RP', currentPlayers: 12 })).id);
  ids.push((await createServer(t.app, owner.row.id, { name: 'Figures Boosted RP' })).id);
  await t.app.ctx.db
    .updateTable('servers')
    .set({
      likes: 7,
      dislikes: 2,
      views: 30,
      maxPlayers: 64,
      totalJoins: 5,
      totalBoosts: 1,
      monthVotes: 3,
      lastBoostedAt: new Date('2026-11-01T10:00:00.123Z'),
    })
    .where('id', '=', ids[2]!)
    .execute();
  t.app.ctx.discovery.invalidate();
});
afterAll(() => t.close());

const listed = async () => {
  const res = await t.app.inject({ url: '/api/servers?q=Figures&limit=50' });
  expect(res.statusCode).toBe(200);
  return res.json<Record<string, unknown>[]>();
};

describe('a card compared with its row after the search index reads it again', () => {
  it('is equal to the row it was read from, whatever the server’s state (so a vote here does not make it read again)', async () => {
    await expect.poll(async () => (await listed()).length, { timeout: 5000 }).toBe(3);
    const cards = await listed();
    const { rows } = await searchIndexRepository(t.app.ctx.db).changesSince('1');
    for (const id of ids) {
      const card = cards.find((c) => c['id'] === String(id))!;
      const row = rows.find((r) => r.id === id)!;
      expect(cardShowsRow(card, row), card['name'] as string).toBe(true);
      expect(cardShowsRow(card, { ...row, likes: row.likes + 1 })).toBe(false);
    }
  });

  it('shows what another writer changed in a row once the index has read it', async () => {
    const figures = async () => {
      const card = (await listed()).find((c) => c['id'] === String(ids[2]))!;
      return { likes: card['likes'], views: card['views'], currentPlayers: card['currentPlayers'] };
    };
    expect(await figures()).toEqual({ likes: 7, views: 30, currentPlayers: 0 });
    // Written behind this instance's back, as another instance's vote or the view counter does.
    await t.app.ctx.db
      .updateTable('servers')
      .set({ likes: 9, views: 31, currentPlayers: 5, online: true })
      .where('id', '=', ids[2]!)
      .execute();
    await expect.poll(figures, { timeout: 5000, interval: 100 }).toEqual({ likes: 9, views: 31, currentPlayers: 5 });
  });
});
