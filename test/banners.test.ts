import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createUser } from './helpers/factories';

describe('live banners', () => {
  let t: TestApp;
  let serverId: number;
  beforeAll(async () => {
    t = await createTestApp();
    const owner = await createUser(t.app, { role: 'server_owner' });
    const fivem = await t.app.ctx.db.selectFrom('filters').select('id').where('name', '=', 'FiveM (GTA V)').executeTakeFirstOrThrow();
    const server = await t.app.ctx.db
      .insertInto('servers')
      .values({
        ownerId: owner.row.id,
        name: 'Los <Santos> & "Co" RP',
        online: true,
        currentPlayers: 57,
        maxPlayers: 128,
        likes: 1_000_000,
        lastPolledAt: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.app.ctx.db.insertInto('serverFilters').values({ serverId: server.id, filterId: fivem.id }).execute();
    serverId = server.id;
  });
  afterAll(() => t?.close());

  it('draws the live name, game, players and rank as SVG, escaped, embeddable from any site', async () => {
    const res = await t.app.inject({ url: `/servers/${serverId}/banner.svg` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('image/svg+xml');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    expect(res.body).toContain('width="468" height="60"');
    expect(res.body).toContain('Los &lt;Santos&gt; &amp; &quot;Co&quot; RP');
    expect(res.body).not.toContain('<Santos>');
    expect(res.body).toContain('FiveM (GTA V) · 57/128 players · #1 of');
    const again = await t.app.inject({ url: `/servers/${serverId}/banner.svg`, headers: { 'if-none-match': res.headers.etag as string } });
    expect(again.statusCode).toBe(304);
  });

  it('renders PNGs at the sizes forums and link previews use', async () => {
    for (const [size, width, height] of [
      ['468x60', 468, 60],
      ['560x95', 560, 95],
      ['1200x630', 1200, 630],
    ] as const) {
      const res = await t.app.inject({ url: `/servers/${serverId}/banner.png?size=${size}` });
      expect(res.statusCode, size).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      const meta = await sharp(res.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', width, height]);
      // Not a blank image: the text and the dot are drawn.
      const stats = await sharp(res.rawPayload).stats();
      expect(stats.channels[0]!.max - stats.channels[0]!.min).toBeGreaterThan(100);
    }
  });

  it('refuses unknown sizes, missing and hidden servers', async () => {
    expect((await t.app.inject({ url: `/servers/${serverId}/banner.png?size=9999x1` })).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/servers/999999/banner.svg' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/servers/abc/banner.svg' })).statusCode).toBe(404);
    await t.app.ctx.db.updateTable('servers').set({ hidden: true }).where('id', '=', serverId).execute();
    t.app.ctx.discovery.invalidate();
    expect((await t.app.inject({ url: `/servers/${serverId}/banner.png?size=560x95` })).statusCode).toBe(404);
    await t.app.ctx.db.updateTable('servers').set({ hidden: false }).where('id', '=', serverId).execute();
  });
});
