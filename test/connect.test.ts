import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cfxCodeSchema, connectInfo } from '../src/shared/connect';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, putGame } from './helpers/factories';

describe('one-click connect', () => {
  it('gives each game its own way in', () => {
    const at = (game: string, port: number, cfxCode: string | null = null) =>
      connectInfo({ game, gameHost: 'play.example.com', gamePort: port, cfxCode });
    expect(at('fivem', 30120, 'abc123')).toEqual({
      address: 'play.example.com:30120',
      links: [
        { label: 'Connect in FiveM', url: 'fivem://connect/play.example.com:30120' },
        { label: 'Join on cfx.re', url: 'https://cfx.re/join/abc123' },
      ],
      howTo: expect.stringContaining('connect play.example.com:30120'),
    });
    expect(at('redm', 30120)!.links).toEqual([{ label: 'Connect in RedM', url: 'redm://connect/play.example.com:30120' }]);
    expect(at('garrysmod', 27015)!.links).toEqual([{ label: 'Connect through Steam', url: 'steam://connect/play.example.com:27015' }]);
    expect(at('minecraft', 25565)).toMatchObject({ address: 'play.example.com', links: [] });
    expect(at('minecraft', 25566)!.address).toBe('play.example.com:25566');
    expect(at('minecraft-bedrock', 19132)!.howTo).toContain('port 19132');
    expect(connectInfo({ game: 'fivem', gameHost: '2001:db8::1', gamePort: 30120 })!.address).toBe('[2001:db8::1]:30120');
    expect(connectInfo({ game: null, gameHost: null, gamePort: null })).toBeNull();
  });

  it('reads a cfx.re code or its link, and refuses anything else', () => {
    for (const given of ['abc123', 'ABC123', 'https://cfx.re/join/abc123', 'cfx.re/join/abc123/', ' https://www.cfx.re/join/abc123 '])
      expect(cfxCodeSchema.parse(given)).toBe('abc123');
    for (const bad of ['https://evil.example/join/abc123', 'abc 123', 'javascript:alert(1)', 'a'.repeat(20)])
      expect(cfxCodeSchema.safeParse(bad).success, bad).toBe(false);
  });

  describe('on the server page', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t?.close());

    it('shows how to connect once the owner connected the game, and refuses a bad join code', async () => {
      const owner = await createUser(t.app, { role: 'server_owner' });
      const server = await createServer(t.app, owner.row.id, { name: 'Connectable City' });
      expect((await t.app.inject({ url: `/api/servers/${server.id}` })).json().connect).toBeNull();
      await t.app.ctx.db
        .updateTable('servers')
        .set({ game: 'fivem', gameHost: '203.0.113.7', gamePort: 30120, cfxCode: 'qz9k2m' })
        .where('id', '=', server.id)
        .execute();
      const page = (await t.app.inject({ url: `/api/servers/${server.id}` })).json();
      expect(page.connect.links.map((l: { url: string }) => l.url)).toEqual([
        'fivem://connect/203.0.113.7:30120',
        'https://cfx.re/join/qz9k2m',
      ]);
      const bad = await putGame(t.app, server.id, owner, {
        game: 'fivem',
        host: '203.0.113.7',
        port: 30120,
        cfxCode: 'https://evil.example/x',
      });
      expect(bad.statusCode).toBe(400);
    });
  });
});
