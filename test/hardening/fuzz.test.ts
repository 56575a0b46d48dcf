import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../src/shared/messages';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { report, scale } from './report';
import { listOperations, type Operation } from './helpers/openapi';
import { actorOf, createCast, objectId, pathIdKinds, refreshToken, validRequest, type Cast } from './helpers/actors';
import { audienceOf } from './helpers/roles';
import { fuzzCases, type FuzzCase } from './helpers/fuzz-cases';

/** What a leaked stack trace or database error looks like in an answer. */
const LEAK_MARKERS = [
  /\n\s+at /,
  /\bat .+\(.+:\d+:\d+\)/,
  /\.ts:\d/,
  /node_modules/,
  /\bSELECT\b/,
  /syntax error/i,
  /\bpostgres\b/i,
  /relation ".+"/,
];

/** Whether an answer breaks the rules: a 5xx (bar maintenance), a leak, or an error without `{error}`. */
function problemOf(status: number, type: string | undefined, body: string): string | undefined {
  if (status >= 500) {
    const maintenance = status === 503 && (body.includes(MSG.maintenance) || body.includes(MSG.unavailable));
    if (!maintenance) return `status ${status}`;
  }
  const marker = LEAK_MARKERS.find((m) => m.test(body));
  if (marker) return `answer contains ${String(marker)}`;
  if (status >= 400) {
    if (!type?.includes('application/json')) return `error answered as ${type ?? 'no content type'}`;
    try {
      const parsed = JSON.parse(body) as { error?: unknown };
      if (typeof parsed.error !== 'string' || !parsed.error) return 'error body without an `error` message';
    } catch {
      return 'error body is not JSON';
    }
  }
  return undefined;
}

describe('fuzz: every operation of the document with hostile input', () => {
  let t: TestApp;
  let cast: Cast;
  let operations: Operation[];

  beforeAll(async () => {
    t = await createTestApp();
    operations = await listOperations(t.app);
    cast = await createCast(t.app);
  });
  afterAll(() => t?.close());

  it(
    'never answers 5xx, never leaks a stack or SQL, always answers errors as {error}',
    async () => {
      const perKind = scale(2, 30);
      const randomRuns = scale(1, 12);
      const failures: string[] = [];
      const covered = new Set<string>();
      let tried = 0;
      const started = Date.now();
      for (const op of operations) {
        const audience = audienceOf(op);
        // Anonymous, and the user most likely to get past the role check (an admin for admin routes).
        const logged = audience === 'admin' ? 'admin' : audience === 'owner' ? 'owner' : tried % 2 ? 'owner' : 'player';
        for (const who of ['anonymous', logged] as const) {
          const user = actorOf(cast, cast.a, who);
          const path = Object.fromEntries(Object.entries(pathIdKinds(op)).map(([p, kind]) => [p, objectId(cast, cast.a, kind, who)]));
          const valid = await validRequest(op, { path, serverId: String(cast.a.serverId), userId: String(cast.a.player.row.id) }, user);
          const cases: FuzzCase[] = fuzzCases(op, valid, perKind, randomRuns);
          for (const c of cases) {
            const response = await t.app.inject({
              method: c.method as Operation['method'],
              url: c.url,
              payload: c.payload,
              headers: c.headers,
            });
            tried++;
            covered.add(op.key);
            const logged = t.takeErrors();
            const problem = problemOf(response.statusCode, response.headers['content-type'] as string | undefined, response.body);
            if (problem || logged.length > 0) {
              failures.push(
                `${who} ${op.key} [${c.label}] → ${response.statusCode} ${problem ?? ''} ${response.body.slice(0, 160)}${
                  logged.length
                    ? ` logged: ${logged
                        .map((e) => e.err?.message ?? e.msg)
                        .join('; ')
                        .slice(0, 200)}`
                    : ''
                }`,
              );
            }
            if (user) await refreshToken(t.app, user);
            // Fuzzed settings may switch maintenance on; later operations must still reach their handlers.
            if (op.path === '/api/admin/settings' && op.method !== 'GET') {
              await t.app.inject({
                method: 'PUT',
                url: '/api/admin/settings',
                payload: { maintenanceMode: false },
                headers: cast.admin.headers,
              });
            }
          }
        }
      }
      report({
        area: 'Fuzz',
        check: 'hostile bodies, queries and path ids on every operation',
        tried,
        gotThrough: failures.length,
        detail: `covered ${covered.size} / total ${operations.length} operations in ${Math.round((Date.now() - started) / 1000)} s${failures.length ? `; first: ${failures[0]!.slice(0, 200)}` : ''}`,
      });
      expect(failures, `${failures.length} answers broke the rules:\n${failures.slice(0, 60).join('\n')}`).toEqual([]);
      expect(covered.size).toBe(operations.length);
    },
    scale(120_000, 1_800_000),
  );
});
