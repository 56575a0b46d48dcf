import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { report } from './report';
import { listOperations, type Operation } from './helpers/openapi';
import { actorOf, createCast, objectId, pathIdKinds, refreshToken, validRequest, type ActorName, type Cast } from './helpers/actors';
import { audienceOf, PUBLIC_OPERATIONS } from './helpers/roles';

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
