import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../src/shared/messages';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, type TestUser } from './helpers/factories';
import { multipart } from './helpers/multipart';

// PostgreSQL refuses NUL characters in text; before the check they failed inside queries as 500s.
describe('text with a NUL character is bad input, not a server error', () => {
  let t: TestApp;
  let owner: TestUser;
  let player: TestUser;
  let serverId: number;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t.app, { role: 'server_owner', plan: 'Premium' });
    player = await createUser(t.app, { role: 'player' });
    serverId = (await createServer(t.app, owner.row.id)).id;
  });
  afterAll(() => t?.close());

  const cases: Array<[string, () => InjectOptions]> = [
    [
      'a JSON body field (login)',
      () => ({ method: 'POST', url: '/api/login', payload: { username: 'a\u0000b', password: 'whatever-password' } }),
    ],
    [
      'a stored text (testimonial)',
      () => ({ method: 'POST', url: '/api/testimonials', headers: owner.headers, payload: { content: 'great\u0000place' } }),
    ],
    ['a review', () => ({ method: 'POST', url: `/api/servers/${serverId}/like`, headers: player.headers, payload: { review: 'x\u0000' } })],
    ['a path parameter', () => ({ method: 'GET', url: '/api/checkout/%00', headers: owner.headers })],
    ['a query parameter', () => ({ method: 'DELETE', url: `/api/servers/${serverId}/gallery?url=%00`, headers: owner.headers })],
    [
      'a nested key',
      () => ({ method: 'POST', url: '/api/servers', headers: owner.headers, payload: { name: 'ok', extra: { 'k\u0000': 1 } } }),
    ],
  ];

  it.each(cases)('answers 400 {error} for NUL in %s, stores nothing, logs nothing', async (_label, request) => {
    const before = await t.app.ctx.db
      .selectFrom('testimonials')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const response = await t.app.inject(request());
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ error: MSG.textInvalidCharacters });
    const after = await t.app.ctx.db
      .selectFrom('testimonials')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    expect(t.takeErrors()).toEqual([]);
  });

  it.each([
    ['server name', () => `/api/servers/${serverId}/customize`, 'name'],
    ['server bio', () => `/api/servers/${serverId}/customize`, 'bio'],
    ['display name', () => `/api/players/${owner.row.id}`, 'displayName'],
  ] as const)('answers 400 for NUL in a multipart %s and keeps the row', async (_label, url, field) => {
    const body = multipart([{ name: field, value: 'bad\u0000text' }]);
    const before = await t.app.ctx.db.selectFrom('servers').select(['name', 'bio']).where('id', '=', serverId).executeTakeFirstOrThrow();
    const response = await t.app.inject({
      method: 'PUT',
      url: url(),
      payload: body.payload,
      headers: { ...owner.headers, ...body.headers },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ error: MSG.textInvalidCharacters });
    expect(await t.app.ctx.db.selectFrom('servers').select(['name', 'bio']).where('id', '=', serverId).executeTakeFirstOrThrow()).toEqual(
      before,
    );
    expect(t.takeErrors()).toEqual([]);
  });

  it('still accepts ordinary unicode text', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/testimonials',
      headers: owner.headers,
      payload: { content: 'Ünïcødé 🙂 ‮ ok' },
    });
    expect(response.statusCode, response.body).toBe(201);
  });
});
