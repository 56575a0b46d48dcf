import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { report } from './report';
import { fillPath, listOperations, type Operation } from './helpers/openapi';
import { MSG } from '../../src/shared/messages';
import { actorOf, createCast, objectId, pathIdKinds, refreshToken, validRequest, type ActorName, type Cast } from './helpers/actors';
import { audienceOf, PUBLIC_OPERATIONS } from './helpers/roles';

/** The owner API's answer to a missing or wrong key. */
const INVALID_KEY = 'Invalid or revoked API key';

/** Who must be turned away from each audience's operations. */
const REFUSED: Record<string, ActorName[]> = {
  admin: ['anonymous', 'player', 'owner'],
  owner: ['anonymous', 'player'],
  user: ['anonymous'],
  public: [],
};

describe('function-level access: every operation refuses callers below its audience', () => {
  let t: TestApp;
  let cast: Cast;
  let operations: Operation[];

  beforeAll(async () => {
    t = await createTestApp();
    operations = await listOperations(t.app);
    cast = await createCast(t.app);
  });
  afterAll(() => t?.close());

  it('answers 401 or 403 to every caller below the audience, with a valid request', async () => {
    const failures: string[] = [];
    let tried = 0;
    const covered = new Set<string>();
    const audiences: Record<string, number> = {};
    for (const op of operations) {
      const audience = audienceOf(op);
      audiences[audience] = (audiences[audience] ?? 0) + 1;
      for (const who of REFUSED[audience]!) {
        const user = actorOf(cast, cast.a, who);
        // The caller's own objects where it has them, so only the role can be what refuses it.
        const path = Object.fromEntries(Object.entries(pathIdKinds(op)).map(([p, kind]) => [p, objectId(cast, cast.a, kind, who)]));
        const request = await validRequest(op, { path, serverId: String(cast.a.serverId), userId: String(cast.a.player.row.id) }, user);
        const response = await t.app.inject(request);
        tried++;
        covered.add(op.key);
        if (response.statusCode !== 401 && response.statusCode !== 403) {
          failures.push(`${who} ${op.key} → ${response.statusCode} ${response.body.slice(0, 120)}`);
        }
        if (user) await refreshToken(t.app, user);
      }
    }
    const total = operations.length;
    const publicCount = operations.filter((op) => op.key in PUBLIC_OPERATIONS).length;
    report({
      area: 'Function-level access',
      check: 'anonymous/player/owner on admin, owner and user routes',
      tried,
      gotThrough: failures.length,
      detail: `covered ${covered.size} / total ${total} (${publicCount} public by design); ${JSON.stringify(audiences)}`,
    });
    expect(failures, failures.join('\n')).toEqual([]);
    expect(covered.size + publicCount).toBe(total);
  });

  it('answers 401 or 403 before it reads the request: a stranger learns no rule, id or field from a bad one', async () => {
    const failures: string[] = [];
    let tried = 0;
    const player = actorOf(cast, cast.a, 'player')!;
    for (const op of operations) {
      const audience = audienceOf(op);
      if (audience === 'public') continue;
      // Ids that are not ids, a query of wrong types and a body that is not even JSON.
      for (const badId of ['not-an-id', '99999999999999999999', '-1']) {
        const url =
          fillPath(op.path, Object.fromEntries(op.pathParams.map((name) => [name, badId]))) +
          (op.query.length > 0 ? `?${op.query.map((q) => `${q.name}=%00%ff`).join('&')}` : '');
        const payload = op.body || op.multipart ? '{"unterminated": ' : undefined;
        const body = payload === undefined ? {} : { payload, headers: { 'content-type': 'application/json' } };
        // The owner API takes a server's API key, not a session.
        const byKey = op.path.startsWith('/api/v1/');
        const callers: Array<[string, Record<string, string>, number, string]> = [
          ['anonymous', {}, 401, byKey ? INVALID_KEY : MSG.loginRequired],
          ['a token that is not one', { authorization: 'Bearer not.a.token' }, 401, byKey ? INVALID_KEY : MSG.sessionExpired],
          ...(audience === 'admin'
            ? [['player', player.headers, 403, MSG.forbidden] as [string, Record<string, string>, number, string]]
            : []),
        ];
        for (const [who, headers, status, message] of callers) {
          const response = await t.app.inject({ method: op.method, url, ...body, headers: { ...body.headers, ...headers } });
          tried++;
          const error = String(response.headers['content-type'] ?? '').includes('json')
            ? (response.json() as { error?: string }).error
            : undefined;
          if (response.statusCode !== status || error !== message) {
            failures.push(`${who} ${op.method} ${url} → ${response.statusCode} ${response.body.slice(0, 120)}`);
          }
        }
      }
    }
    report({
      area: 'Function-level access',
      check: 'callers below the audience with malformed ids, queries and bodies',
      tried,
      gotThrough: failures.length,
    });
    expect(failures, failures.join('\n')).toEqual([]);
    expect(tried).toBeGreaterThan(100);
  });

  it('puts every route under /api/admin in the admin audience, and the public list names real routes', () => {
    const keys = new Set(operations.map((op) => op.key));
    const stale = Object.keys(PUBLIC_OPERATIONS).filter((key) => !keys.has(key));
    expect(stale, 'public operations that no longer exist').toEqual([]);
    for (const op of operations.filter((o) => o.path.startsWith('/api/admin'))) expect(audienceOf(op), op.key).toBe('admin');
    // Multipart routes are described as such by the document, so the suite sends them form data.
    expect(operations.filter((o) => o.multipart).map((o) => o.key)).toEqual(
      expect.arrayContaining(['PUT /api/servers/{id}/customize', 'POST /api/servers/{id}/upload-gallery', 'PUT /api/players/{id}']),
    );
  });
});
