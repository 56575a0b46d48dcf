import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { GAME_TARGET } from './helpers/actors';
import { report } from './report';
import { listOperations, SERVER_ID_FIELDS, USER_ID_FIELDS, type Operation } from './helpers/openapi';
import {
  actorOf,
  appTables,
  changedTables,
  createCast,
  objectId,
  pathIdKinds,
  refreshToken,
  snapshot,
  validRequest,
  type Cast,
} from './helpers/actors';

/**
 * Operations whose point is to act on somebody else's object: anyone may read a public server
 * page, vote on it, join it, report it or boost it. They are not object-level holes.
 */
const ACTS_ON_OTHERS_BY_DESIGN: Record<string, string> = {
  'GET /api/servers/{id}': 'public server page',
  'GET /api/servers/{id}/reviews': 'public reviews',
  'GET /api/servers/{id}/history': 'public player-count history',
  'POST /api/servers/{id}/join': 'joining is done to other people’s servers',
  'POST /api/servers/{id}/like': 'voting is done on other people’s servers',
  'PUT /api/servers/{id}/review': 'the caller’s own review of another person’s server',
  'POST /api/servers/{id}/dislike': 'voting is done on other people’s servers',
  'POST /api/reports': 'reporting is done on other people’s servers',
  'POST /api/boost-single-session': 'players boost servers they do not own',
  'POST /api/servers/{id}/vote': 'daily votes are given to other people’s servers',
  'GET /api/servers/{id}/vote': 'the caller’s own daily vote on a server',
  'GET /api/servers/{id}/follow': 'public follower count and the caller’s own follow',
  'POST /api/servers/{id}/follow': 'players follow servers they do not own',
  'DELETE /api/servers/{id}/follow': 'the caller’s own follow',
  'GET /api/servers/{id}/events': 'public events of a server',
  'GET /servers/{id}/banner.svg': 'public banner of a server',
  'GET /servers/{id}/banner.png': 'public banner of a server',
};

/** The operation takes an object id, in its path or its body. */
function takesId(op: Operation): boolean {
  const fields = Object.keys(op.body?.properties ?? {});
  return op.pathParams.length > 0 || fields.some((f) => SERVER_ID_FIELDS.has(f) || USER_ID_FIELDS.has(f));
}

describe('object-level access: user B cannot read or change user A’s objects', () => {
  let t: TestApp;
  let cast: Cast;
  let operations: Operation[];

  beforeAll(async () => {
    // The one address this app may reach (nothing listens there), so the game and vote-reward routes take a valid body.
    t = await createTestApp({ env: { OUTBOUND_TEST_TARGETS: GAME_TARGET } });
    operations = await listOperations(t.app);
    cast = await createCast(t.app);
  });
  afterAll(() => t?.close());

  it('answers 403 or 404 and changes nothing for every operation that takes an id', async () => {
    const tables = await appTables(t.app);
    const withIds = operations.filter(takesId);
    const targets = withIds.filter((op) => !(op.key in ACTS_ON_OTHERS_BY_DESIGN));
    const failures: string[] = [];
    let tried = 0;
    let gotThrough = 0;
    for (const op of targets) {
      for (const who of ['owner', 'player'] as const) {
        const attacker = actorOf(cast, cast.b, who)!;
        const path = Object.fromEntries(Object.entries(pathIdKinds(op)).map(([p, kind]) => [p, objectId(cast, cast.a, kind, who)]));
        const victimUser = who === 'owner' ? cast.a.owner.row.id : cast.a.player.row.id;
        const request = await validRequest(op, { path, serverId: String(cast.a.serverId), userId: String(victimUser) }, attacker);
        const before = await snapshot(t.app, tables);
        const response = await t.app.inject(request);
        const changed = changedTables(before, await snapshot(t.app, tables));
        tried++;
        const succeeded = response.statusCode < 400;
        if (succeeded || changed.length > 0) {
          gotThrough++;
          failures.push(
            `${who} B ${op.key} on A's object → ${response.statusCode} ${response.body.slice(0, 80)}; changed tables: ${changed.join(', ') || 'none'} (must be refused with 403/404 even when nothing changes)`,
          );
        } else if (response.statusCode !== 403 && response.statusCode !== 404) {
          failures.push(`${who} B ${op.key} → ${response.statusCode} (expected 403 or 404): ${response.body.slice(0, 120)}`);
        }
        await refreshToken(t.app, attacker);
      }
    }
    report({
      area: 'Object-level access',
      check: 'user B calls every id-taking route with user A’s objects',
      tried,
      gotThrough,
      detail: `covered ${targets.length} / total ${withIds.length} id-taking routes (${withIds.length - targets.length} act on others by design; ${operations.length} routes in all)`,
    });
    expect(failures, failures.join('\n')).toEqual([]);
  });

  it('sees a change when the owner edits their own server (the snapshot is not blind)', async () => {
    const tables = await appTables(t.app);
    const before = await snapshot(t.app, tables);
    const own = operations.find((op) => op.key === 'PUT /api/servers/{id}/customize')!;
    const request = await validRequest(own, { path: { id: String(cast.a.serverId) } }, cast.a.owner);
    const response = await t.app.inject(request);
    expect(response.statusCode, response.body).toBe(200);
    expect(changedTables(before, await snapshot(t.app, tables))).toContain('servers');
  });

  it('lists only exceptions that are real routes', () => {
    const keys = new Set(operations.map((op) => op.key));
    expect(Object.keys(ACTS_ON_OTHERS_BY_DESIGN).filter((key) => !keys.has(key))).toEqual([]);
  });
});
