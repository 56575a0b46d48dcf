import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, type TestUser } from './helpers/factories';
import { MSG } from '../src/shared/messages';

/** Owner routes that take a body: someone who may not use them learns nothing from its rules. */
const ROUTES: Array<{ method: 'PUT' | 'POST'; path: (id: number) => string }> = [
  { method: 'PUT', path: (id) => `/api/servers/${id}/game` },
  { method: 'POST', path: (id) => `/api/servers/${id}/game/check` },
  { method: 'POST', path: (id) => `/api/servers/${id}/api-keys` },
  { method: 'POST', path: (id) => `/api/servers/${id}/events` },
  { method: 'PUT', path: (id) => `/api/servers/${id}/rewards/webhook` },
  { method: 'PUT', path: (id) => `/api/servers/${id}/rewards/votifier` },
];

const BAD_BODIES: unknown[] = [{}, { url: 5, name: [], game: 'tetris', title: null, port: 'x' }, { host: '127.0.0.1', port: 70000 }, []];

describe('owner routes check the owner before the body', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let player: TestUser;
  let serverId: number;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t.app, { role: 'server_owner', plan: 'Premium' });
    stranger = await createUser(t.app, { role: 'server_owner', plan: 'Premium' });
    player = await createUser(t.app);
    serverId = (await createServer(t.app, owner.row.id)).id;
  });
  afterAll(() => t.close());

  const send = (route: (typeof ROUTES)[number], id: number, user: TestUser | undefined, payload: unknown) =>
    t.app.inject({ method: route.method, url: route.path(id), headers: user?.headers ?? {}, payload: payload as object });

  it("answers another owner, a player and an anonymous caller the same whatever the body, and never the route's validation errors", async () => {
    for (const route of ROUTES) {
      for (const body of BAD_BODIES) {
        const label = `${route.method} ${route.path(serverId)} ${JSON.stringify(body)}`;
        for (const user of [stranger, player]) {
          const res = await send(route, serverId, user, body);
          expect(res.statusCode, label).toBe(403);
          expect(res.json(), label).toMatchObject({ error: MSG.notYourServer });
        }
        expect((await send(route, serverId, undefined, body)).statusCode, label).toBe(401);
        expect((await send(route, 999_999_999, stranger, body)).statusCode, label).toBe(404);
      }
    }
  });

  it('still answers the owner with what is wrong in the body', async () => {
    for (const route of ROUTES.filter((r) => r.method === 'PUT' || r.path(1).endsWith('api-keys') || r.path(1).endsWith('events'))) {
      const res = await send(route, serverId, owner, { url: 5, name: [], title: null, game: 'tetris' });
      expect(res.statusCode, route.path(serverId)).toBe(400);
    }
  });
});
