import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../helpers/factories';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { GAME_TARGET } from './helpers/actors';
import { report } from './report';
import { listOperations, send, type Exchange, type Operation } from './helpers/openapi';
import { actorOf, appTables, createCast, objectId, pathIdKinds, refreshToken, snapshot, validRequest, type Cast } from './helpers/actors';
import { audienceOf } from './helpers/roles';
import { findLeaks } from './helpers/leaks';

/** A number no request sets on purpose: seeing it stored means a privileged field was taken. */
const SENTINEL = 987654;
const SENTINEL_DATE = '1999-01-01T00:00:00.000Z';

/** Fields a client must never set; `victim` is a user the caller has nothing to do with. */
function privilegedFields(victim: number, actor: TestUser): Record<string, unknown> {
  return {
    role: 'admin',
    isAdmin: true,
    admin: true,
    ownerId: String(victim),
    userId: String(victim),
    reporterId: String(victim),
    createdBy: String(victim),
    likes: SENTINEL,
    dislikes: SENTINEL,
    joins: SENTINEL,
    totalJoins: SENTINEL,
    boosts: SENTINEL,
    totalBoosts: SENTINEL,
    views: SENTINEL,
    currentPlayers: SENTINEL,
    maxPlayers: SENTINEL,
    boostCredits: SENTINEL,
    amountCents: SENTINEL,
    quantity: SENTINEL,
    id: SENTINEL,
    tokenVersion: SENTINEL,
    createdAt: SENTINEL_DATE,
    updatedAt: SENTINEL_DATE,
    subscriptionPlan: actor.row.subscriptionPlan === 'Premium' ? 'Pro' : 'Premium',
    emailConfirmed: true,
    emailVerified: true,
    stripeCustomerId: 'cus_injected',
    passwordHash: 'injected',
    hidden: true,
  };
}

const MULTIPART_FIELDS = new Set([
  'role',
  'ownerId',
  'userId',
  'likes',
  'totalJoins',
  'totalBoosts',
  'views',
  'id',
  'createdAt',
  'hidden',
  'subscriptionPlan',
  'tokenVersion',
]);

type Row = Record<string, unknown>;

/** Rows that are new or changed between two snapshots, per table. */
function changedRows(before: Map<string, string>, after: Map<string, string>): Array<{ table: string; row: Row }> {
  const out: Array<{ table: string; row: Row }> = [];
  for (const [table, text] of after) {
    const old = new Set((before.get(table) ?? '').split('\n'));
    for (const line of text.split('\n')) if (line && !old.has(line)) out.push({ table, row: JSON.parse(line) as Row });
  }
  return out;
}

const USER_COLUMNS = /^(owner_?id|user_?id|reporter_?id|created_?by)$/i;

/** What in a changed row can only have come from an injected field. */
function injected(table: string, row: Row, victim: number, hadPlan: Map<number, unknown>, injectedPlan: unknown): string[] {
  const found: string[] = [];
  for (const [column, value] of Object.entries(row)) {
    if (value === SENTINEL || value === String(SENTINEL)) found.push(`${table}.${column} = ${SENTINEL}`);
    if (typeof value === 'string' && value.startsWith('1999-01-01')) found.push(`${table}.${column} = ${value}`);
    if (value instanceof Date && value.getUTCFullYear() === 1999) found.push(`${table}.${column} = 1999`);
    if (USER_COLUMNS.test(column) && Number(value) === victim) found.push(`${table}.${column} = the victim`);
    if (value === 'cus_injected' || value === 'injected') found.push(`${table}.${column} = ${String(value)}`);
  }
  if (table === 'users') {
    const id = Number(row.id);
    if (row.role === 'admin' && !hadPlan.has(id)) found.push(`users.role = admin for a new user`);
    const plan = row.subscription_plan ?? row.subscriptionPlan;
    // Cancelling a subscription changes the plan too; only the injected value gives the field away.
    if (hadPlan.has(id) && plan !== hadPlan.get(id) && plan === injectedPlan)
      found.push(`users.subscription_plan of ${id} → ${String(plan)}`);
  }
  return found;
}

describe('property-level: privileged fields in a body are ignored, private fields never answered', () => {
  let t: TestApp;
  let cast: Cast;
  let victim: TestUser;
  let operations: Operation[];
  const exchanges: Exchange[] = [];

  beforeAll(async () => {
    // The one address this app may reach (nothing listens there), so the game and vote-reward routes take a valid body.
    t = await createTestApp({ env: { OUTBOUND_TEST_TARGETS: GAME_TARGET } });
    operations = await listOperations(t.app);
    cast = await createCast(t.app);
    // An admin nobody writes to: no notification or e-mail target includes it, so its id in a row is an injection.
    victim = await createUser(t.app, { role: 'admin' });
  });
  afterAll(() => t?.close());

  it('keeps stored rows unchanged by privileged fields on every write operation', async () => {
    const tables = await appTables(t.app);
    const writes = operations.filter((op) => op.method === 'POST' || op.method === 'PUT' || op.method === 'PATCH');
    const failures: string[] = [];
    const accepted = new Set<string>();
    const refused: string[] = [];
    let tried = 0;
    for (const op of writes) {
      const audience = audienceOf(op);
      const callers =
        audience === 'admin' ? (['admin'] as const) : audience === 'owner' ? (['owner'] as const) : (['player', 'owner'] as const);
      for (const who of callers) {
        const user = actorOf(cast, cast.a, who)!;
        const plans = new Map<number, unknown>();
        for (const u of await t.app.ctx.db.selectFrom('users').select(['id', 'subscriptionPlan']).execute())
          plans.set(u.id, u.subscriptionPlan);
        const path = Object.fromEntries(Object.entries(pathIdKinds(op)).map(([p, kind]) => [p, objectId(cast, cast.a, kind, who)]));
        const base = await validRequest(op, { path, serverId: String(cast.a.serverId), userId: String(cast.a.player.row.id) }, user);
        // Fields the valid body already carries keep their valid value (a register's role stays `player`).
        const present = base.payload && !op.multipart ? Object.keys(JSON.parse(String(base.payload)) as Row) : [];
        let extra = Object.fromEntries(Object.entries(privilegedFields(victim.row.id, user)).filter(([k]) => !present.includes(k)));
        // A multipart body takes at most 20 fields: send the ones a form could plausibly map to columns.
        if (op.multipart) extra = Object.fromEntries(Object.entries(extra).filter(([k]) => MULTIPART_FIELDS.has(k)));
        const request = await validRequest(
          op,
          { path, serverId: String(cast.a.serverId), userId: String(cast.a.player.row.id) },
          user,
          extra,
        );
        const before = await snapshot(t.app, tables);
        const response = await send(t.app, { ...request, key: op.key, actor: user.row.username }, exchanges);
        const after = await snapshot(t.app, tables);
        tried++;
        if (response.statusCode < 300) accepted.add(op.key);
        else refused.push(`${who} ${op.key} ${response.statusCode}`);
        const found = changedRows(before, after).flatMap(({ table, row }) =>
          injected(table, row, victim.row.id, plans, extra.subscriptionPlan),
        );
        if (found.length > 0) failures.push(`${who} ${op.key} → ${response.statusCode}: ${[...new Set(found)].join('; ')}`);
        await refreshToken(t.app, user);
        // A cancelled plan would stop the owner's later calls at the plan check instead of the body.
        await t.app.ctx.db.updateTable('users').set({ subscriptionPlan: 'Premium' }).where('id', '=', cast.a.owner.row.id).execute();
      }
    }
    report({
      area: 'Property-level access',
      check: 'privileged fields added to every write body',
      tried,
      gotThrough: failures.length,
      detail: `covered ${writes.length} / total ${writes.length} write routes; ${accepted.size} accepted the body; refused whole: ${refused.join(', ')}`,
    });
    expect(failures, failures.join('\n')).toEqual([]);
    expect(accepted.size, 'too few write operations accepted a valid body: the suite is not exercising them').toBeGreaterThan(
      writes.length / 2,
    );
  });

  it('would see an injected value (the detector is not blind)', async () => {
    const tables = await appTables(t.app);
    const before = await snapshot(t.app, tables);
    await t.app.ctx.db.updateTable('servers').set({ totalJoins: SENTINEL }).where('id', '=', cast.b.serverId).execute();
    const plans = new Map<number, unknown>();
    const found = changedRows(before, await snapshot(t.app, tables)).flatMap(({ table, row }) =>
      injected(table, row, victim.row.id, plans, 'Pro'),
    );
    expect(found).toEqual([`servers.total_joins = ${SENTINEL}`]);
  });

  it('never answers private fields: every answer of this run and a read of every GET route as each actor', async () => {
    const gets = operations.filter((op) => op.method === 'GET');
    for (const op of gets) {
      for (const who of ['anonymous', 'player', 'owner', 'admin'] as const) {
        const user = actorOf(cast, cast.a, who);
        const path = Object.fromEntries(Object.entries(pathIdKinds(op)).map(([p, kind]) => [p, objectId(cast, cast.a, kind, who)]));
        const request = await validRequest(op, { path, serverId: String(cast.a.serverId) }, user);
        await send(t.app, { ...request, key: op.key, actor: user?.row.username ?? 'anonymous' }, exchanges);
      }
    }
    await refreshToken(t.app, cast.b.player);
    const hashes = (await t.app.ctx.db.selectFrom('resetTokens').select('tokenHash').execute()).map((r) => r.tokenHash);
    const leaks = findLeaks(exchanges, cast, hashes);
    report({
      area: 'Property-level access',
      check: 'private fields in answers (hashes, token versions, others’ e-mails and Stripe ids)',
      tried: exchanges.length,
      gotThrough: leaks.length,
      detail: `${exchanges.length} answers scanned, ${gets.length} GET routes read as 4 actors`,
    });
    expect(leaks, leaks.join('\n')).toEqual([]);
  });
});
