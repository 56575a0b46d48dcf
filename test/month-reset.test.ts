import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser } from './helpers/factories';

describe('a new month’s reset of the daily-vote counts', () => {
  let t: TestApp;
  let lastMonths: number;
  let thisMonths: number;
  beforeAll(async () => {
    // Answers are kept for a minute: what still shows last month's count after the reset was not dropped.
    t = await createTestApp({ build: { listCacheTtlMs: 60_000 } });
    const owner = await createUser(t.app, { role: 'server_owner' });
    lastMonths = (await createServer(t.app, owner.row.id, { name: 'Old Month Harbour' })).id;
    thisMonths = (await createServer(t.app, owner.row.id, { name: 'New Month Harbour' })).id;
    const month = new Date().toISOString().slice(0, 7);
    await t.app.ctx.db.updateTable('servers').set({ monthVotes: 7, voteMonth: '2020-01' }).where('id', '=', lastMonths).execute();
    await t.app.ctx.db.updateTable('servers').set({ monthVotes: 3, voteMonth: month }).where('id', '=', thisMonths).execute();
    // Written behind the app's back: announced, as an edit would be.
    t.app.ctx.discovery.invalidate();
  });
  afterAll(() => t?.close());

  const monthVotesShown = async () => {
    const page = await t.app.inject({ url: `/api/servers/${lastMonths}` });
    const list = await t.app.inject({ url: '/api/servers?sort=new&limit=10' });
    const card = (id: number) => list.json<Array<{ id: string; monthVotes: number }>>().find((s) => s.id === String(id))?.monthVotes;
    return { page: page.json<{ monthVotes: number }>().monthVotes, card: card(lastMonths), other: card(thisMonths) };
  };

  it('shows every reset count at once on pages and lists held from before it, and leaves this month’s counts', async () => {
    // Read twice: held from the second ask on.
    await monthVotesShown();
    expect(await monthVotesShown()).toEqual({ page: 7, card: 7, other: 3 });
    expect(await t.app.ctx.dailyVotes.resetMonth()).toBe(1);
    expect(await monthVotesShown()).toEqual({ page: 0, card: 0, other: 3 });
  });
});
