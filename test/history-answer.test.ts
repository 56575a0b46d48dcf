import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser } from './helpers/factories';
import { historySchema, type History, type HistoryRange } from '../src/shared/schemas/game-status';
import { jsonThrough } from '../src/server/lib/cached-body';
import { MSG } from '../src/shared/messages';

const clock = new Date('2026-11-30T12:00:00.000Z');
const HOUR = 3600_000;
const RANGE_MS: Record<HistoryRange, number> = { '24h': 24 * HOUR, '7d': 7 * 24 * HOUR, '30d': 30 * 24 * HOUR };

type Sample = {
  sampledAt: Date;
  resolution: 'raw' | 'hour' | 'day';
  players: number;
  online: boolean;
  samples: number;
  onlineSamples: number;
};

/**
 * The history answer is written by the database and spliced into the rest
 * (docs/decisions/069-server-history-answered-once.md); these hold it byte for byte equal to the
 * answer through the response schema, made from the samples as the history defines it.
 */
describe('a server’s history answer', () => {
  let t: TestApp;
  let ownerId: number;
  beforeAll(async () => {
    t = await createTestApp({ build: { now: () => clock } });
    ownerId = (await createUser(t.app, { role: 'server_owner' })).row.id;
  });
  afterAll(() => t.close());

  const serverWith = async (samples: Sample[]) => {
    const server = await createServer(t.app, ownerId);
    for (let i = 0; i < samples.length; i += 1000)
      await t.app.ctx.db
        .insertInto('playerCountSamples')
        .values(samples.slice(i, i + 1000).map((s) => ({ ...s, serverId: server.id })))
        .execute();
    return server.id;
  };

  /** What the schema writes for these samples: the oldest 5000 in the range, average and uptime weighted by polls. */
  const expected = (range: HistoryRange, all: Sample[]): string => {
    const since = clock.getTime() - RANGE_MS[range];
    const rows = all
      .filter((s) => s.sampledAt.getTime() >= since)
      .sort((a, b) => a.sampledAt.getTime() - b.sampledAt.getTime())
      .slice(0, 5000);
    const polls = rows.reduce((n, r) => n + r.samples, 0);
    const online = rows.reduce((n, r) => n + r.onlineSamples, 0);
    const weighted = rows.reduce((n, r) => n + r.players * r.samples, 0);
    const history: History = {
      range,
      points: rows.map((r) => ({ t: r.sampledAt.toISOString(), players: r.players, online: r.online })),
      average: polls ? Math.round((weighted / polls) * 10) / 10 : 0,
      peak: rows.reduce((m, r) => Math.max(m, r.players), 0),
      uptimePercent: polls ? Math.round((online / polls) * 1000) / 10 : null,
    };
    return jsonThrough(historySchema, history);
  };

  const ask = (id: number, range: HistoryRange) => t.app.inject({ url: `/api/servers/${id}/history?range=${range}` });
  const ago = (ms: number) => new Date(clock.getTime() - ms);
  const raw = (at: Date, players: number, online = players > 0): Sample => ({
    sampledAt: at,
    resolution: 'raw',
    players,
    online,
    samples: 1,
    onlineSamples: online ? 1 : 0,
  });

  it('writes every resolution, offline polls and the range’s edge as the schema does', async () => {
    const samples: Sample[] = [
      // Raw polls of the last two days: busy, empty but online, offline, one at exactly 24 hours.
      raw(ago(24 * HOUR), 40),
      raw(ago(23 * HOUR + 123), 17),
      raw(ago(5 * HOUR), 0, true),
      raw(ago(4 * HOUR), 0, false),
      raw(ago(60_000), 2_000_000),
      raw(ago(30 * HOUR), 9),
      // Hours rolled up three and ten days back, a day rolled up forty days back (out of every range).
      { sampledAt: ago(72 * HOUR), resolution: 'hour', players: 15, online: true, samples: 4, onlineSamples: 3 },
      { sampledAt: ago(240 * HOUR), resolution: 'hour', players: 7, online: false, samples: 20, onlineSamples: 1 },
      { sampledAt: ago(29 * 24 * HOUR), resolution: 'day', players: 33, online: true, samples: 480, onlineSamples: 333 },
      { sampledAt: ago(40 * 24 * HOUR), resolution: 'day', players: 99, online: true, samples: 480, onlineSamples: 480 },
    ];
    const id = await serverWith(samples);
    for (const range of ['24h', '7d', '30d'] as const) {
      const res = await ask(id, range);
      expect(res.statusCode).toBe(200);
      expect(res.body, range).toBe(expected(range, samples));
    }
    expect(JSON.parse((await ask(id, '24h')).body)).toMatchObject({ peak: 2_000_000, uptimePercent: 80 });
  });

  it('writes a server with no samples, and the oldest 5000 of a range that holds more', async () => {
    const none = await serverWith([]);
    expect((await ask(none, '24h')).body).toBe(expected('24h', []));
    expect(JSON.parse((await ask(none, '30d')).body)).toEqual({ range: '30d', points: [], average: 0, peak: 0, uptimePercent: null });

    // A poll every 30 seconds for two days: 5,760 raw samples.
    const busy = Array.from({ length: 5760 }, (_, i) => raw(ago(i * 30_000 + 15_000), (i * 37) % 101, i % 9 !== 0));
    const id = await serverWith(busy);
    for (const range of ['24h', '7d'] as const) expect((await ask(id, range)).body, range).toBe(expected(range, busy));
    expect(JSON.parse((await ask(id, '7d')).body).points).toHaveLength(5000);
  });

  it('answers 404 for a hidden server and one that does not exist', async () => {
    const id = await serverWith([raw(ago(HOUR), 5)]);
    await t.app.ctx.db.updateTable('servers').set({ hidden: true }).where('id', '=', id).execute();
    for (const url of [`/api/servers/${id}/history?range=24h`, '/api/servers/999999999/history?range=24h']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ error: MSG.serverNotFound });
    }
  });
});
