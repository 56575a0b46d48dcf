import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { createServer, createUser, TEST_PASSWORD, uniqueName, type TestUser } from '../../helpers/factories';
import { makeImage, multipart, file } from '../../helpers/multipart';
import { fillPath, sampleQuery, sampleValue, type Operation } from './openapi';

/** The loopback address hardening apps let game queries and vote rewards reach: the discard port, where nothing answers. */
export const GAME_TARGET = '127.0.0.1:9';

/** One side of the cast: an owner with a server and a player with a vote, an inbox, a report. */
export interface Side {
  owner: TestUser;
  player: TestUser;
  serverId: number;
  notificationId: number;
  ownerNotificationId: number;
  checkoutId: string;
  reportId: number;
  testimonialId: number;
  /** An API key of the owner's server (its id, for revoking). */
  apiKeyId: number;
  /** The verified claim of the server's game address (admins revoke it). */
  gameClaimId: number;
}

/** Two owners and two players (sides A and B) and an admin, each with objects of their own. */
export interface Cast {
  admin: TestUser;
  a: Side;
  b: Side;
  campaignId: number;
}

export type ActorName = 'anonymous' | 'player' | 'owner' | 'admin';

async function createSide(app: FastifyInstance, label: string, other?: number): Promise<Side> {
  const { db } = app.ctx;
  // Premium, so that the plan never stands between an owner and their own server.
  const owner = await createUser(app, { role: 'server_owner', username: uniqueName(`owner${label}`), plan: 'Premium' });
  const player = await createUser(app, { role: 'player', username: uniqueName(`player${label}`) });
  // Stripe ids are private: a response that carries another user's id is a leak the scans look for.
  for (const user of [owner, player]) {
    await db
      .updateTable('users')
      .set({ stripeCustomerId: `cus_secret_${user.row.username}` })
      .where('id', '=', user.row.id)
      .execute();
  }
  const server = await createServer(app, owner.row.id, { name: uniqueName(`Server${label}`) });
  // A documentation address the guard refuses: a check of it never leaves the machine.
  const gameHost = label === 'A' ? '203.0.113.10' : '203.0.113.11';
  await db
    .updateTable('servers')
    .set({ game: 'fivem', gameHost, gamePort: 30120, bio: `bio of ${label}`, likes: 1 })
    .where('id', '=', server.id)
    .execute();
  const claim = await db
    .insertInto('gameClaims')
    .values({
      serverId: server.id,
      game: 'fivem',
      host: gameHost,
      hostKey: gameHost,
      port: 30120,
      ip: gameHost,
      code: `rps-HARD${label}`,
      status: 'verified',
      verifiedAt: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('media')
    .values({ serverId: server.id, kind: 'gallery', storageKey: `gallery-${label}.webp`, width: 8, height: 8, bytes: 10 })
    .execute();
  const vote = await db
    .insertInto('votes')
    .values({ userId: player.row.id, serverId: other ?? server.id, type: 'like', review: `review by ${label}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  const notification = await db
    .insertInto('notifications')
    .values({ userId: player.row.id, title: `note ${label}`, message: 'hello', link: '/home' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const ownerNotification = await db
    .insertInto('notifications')
    .values({ userId: owner.row.id, title: `owner note ${label}`, message: 'hello', link: '/home' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const checkoutId = `cs_test_${label}_${process.pid}_${Date.now()}`;
  await db
    .insertInto('checkoutSessions')
    .values({
      id: checkoutId,
      userId: owner.row.id,
      serverId: server.id,
      kind: 'ownerBoost',
      quantity: 10,
      amountCents: 500,
      provider: 'test',
    })
    .execute();
  const report = await db
    .insertInto('reports')
    .values({ reporterId: player.row.id, serverId: other ?? server.id, voteId: vote.id, reason: `report by ${label}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  const testimonial = await db
    .insertInto('testimonials')
    .values({ ownerId: owner.row.id, content: `testimonial ${label}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  const apiKey = await db
    .insertInto('apiKeys')
    .values({
      serverId: server.id,
      name: `key ${label}`,
      prefix: `hk${label}${process.pid}`.slice(0, 10).padEnd(10, '0'),
      hash: '0'.repeat(64),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return {
    apiKeyId: apiKey.id,
    gameClaimId: claim.id,
    owner,
    player,
    serverId: server.id,
    notificationId: notification.id,
    ownerNotificationId: ownerNotification.id,
    checkoutId,
    reportId: report.id,
    testimonialId: testimonial.id,
  };
}

/** Builds the cast on the app's database (rows written directly, tokens signed directly). */
export async function createCast(app: FastifyInstance): Promise<Cast> {
  const admin = await createUser(app, { role: 'admin', username: uniqueName('admin') });
  const b = await createSide(app, 'B');
  const a = await createSide(app, 'A', b.serverId);
  const campaign = await app.ctx.db
    .insertInto('emailCampaigns')
    .values({ createdBy: admin.row.id, subject: 'hello', content: 'world', target: 'players', status: 'done' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { admin, a, b, campaignId: campaign.id };
}

/** The user behind an actor name on a side (undefined for anonymous). */
export function actorOf(cast: Cast, side: Side, name: ActorName): TestUser | undefined {
  if (name === 'anonymous') return undefined;
  if (name === 'admin') return cast.admin;
  return name === 'owner' ? side.owner : side.player;
}

/** A fresh token for the user's current token version (a password change kills the old one). */
export async function refreshToken(app: FastifyInstance, user: TestUser): Promise<void> {
  const row = await app.ctx.db.selectFrom('users').selectAll().where('id', '=', user.row.id).executeTakeFirst();
  if (!row) return;
  user.row = row;
  user.token = await app.ctx.tokens.sign({ userId: row.id, version: row.tokenVersion });
  user.headers = { authorization: `Bearer ${user.token}` };
}

/** What kind of object a path segment's `{id}` names; a new kind must be added here. */
export const ID_KINDS: Record<string, keyof Side | 'user' | 'campaign'> = {
  servers: 'serverId',
  players: 'user',
  users: 'user',
  notifications: 'notificationId',
  checkout: 'checkoutId',
  reports: 'reportId',
  'email-campaigns': 'campaign',
  testimonials: 'testimonialId',
  'api-keys': 'apiKeyId',
  'game-claims': 'gameClaimId',
};

/** The id kind of each path parameter of an operation, from the segment before it. */
export function pathIdKinds(op: Operation): Record<string, string> {
  const kinds: Record<string, string> = {};
  const segments = op.path.split('/');
  segments.forEach((segment, i) => {
    const match = /^\{(\w+)\}$/.exec(segment);
    if (!match) return;
    const kind = ID_KINDS[segments[i - 1] ?? ''];
    if (!kind) throw new Error(`${op.key}: no object kind known for path parameter ${match[1]}; add its segment to ID_KINDS`);
    kinds[match[1]!] = kind;
  });
  return kinds;
}

/** The id of `kind` on a side, seen as `who` (a user id is the player's, or the owner's for an owner). */
export function objectId(cast: Cast, side: Side, kind: string, who: ActorName): string {
  if (kind === 'user') return String(who === 'owner' ? side.owner.row.id : side.player.row.id);
  if (kind === 'campaign') return String(cast.campaignId);
  if (kind === 'notificationId' && who === 'owner') return String(side.ownerNotificationId);
  return String(side[kind as keyof Side] as string | number);
}

/** Multipart operations: the parts of a valid request (the document cannot describe them). */
const MULTIPART_PARTS: Record<string, (image: Buffer) => Parameters<typeof multipart>[0]> = {
  'PUT /api/servers/{id}/customize': () => [
    { name: 'name', value: uniqueName('Renamed') },
    { name: 'statusMessage', value: 'open tonight' },
    { name: 'bio', value: 'a friendly city' },
  ],
  'POST /api/servers/{id}/upload-profile': (image) => [file('profilePicture', image)],
  'POST /api/servers/{id}/upload-banner': (image) => [file('banner', image)],
  'POST /api/servers/{id}/upload-gallery': (image) => [file('galleryImages', image)],
  'PUT /api/players/{id}': () => [{ name: 'displayName', value: 'Display Name' }],
};

const PUSH_SUBSCRIPTION = {
  endpoint: 'https://fcm.googleapis.com/fcm/send/hardening-suite',
  keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'AAAAAAAAAAAAAAAAAAAAAA' },
};

/** JSON bodies the schema alone cannot make valid (credentials, known usernames, real choices). */
const BODY_OVERRIDES: Record<string, (user: TestUser | undefined) => Record<string, unknown>> = {
  'POST /api/register': () => ({ username: uniqueName('reg'), password: TEST_PASSWORD, role: 'player' }),
  'POST /api/login': (user) => ({ username: user?.row.username ?? 'nobody_here', password: TEST_PASSWORD }),
  'POST /api/users/change-password': () => ({ currentPassword: TEST_PASSWORD, newPassword: TEST_PASSWORD }),
  'POST /api/users/update-email': (user) => ({ email: `${user?.row.username ?? 'x'}.new@example.test`, currentPassword: TEST_PASSWORD }),
  'POST /api/reset-password/request': (user) => ({ username: user?.row.username ?? 'nobody_here' }),
  'POST /api/boost-session': () => ({ amount: 10 }),
  'POST /api/boost-credits': () => ({ amount: 10 }),
  'POST /api/notifications': () => ({ userType: 'player', title: 'Hello', message: 'A message', link: '/home' }),
  'POST /api/notifications/send-mass': () => ({ playerCount: 10 }),
  // Accepted only by apps that let GAME_TARGET through (OUTBOUND_TEST_TARGETS); a public host would mean outbound traffic.
  'PUT /api/servers/{id}/game': () => ({ game: 'fivem', host: '127.0.0.1', port: 9 }),
  'POST /api/admin/send-email': () => ({ subject: 'Hi', content: 'Body', target: 'players' }),
  'POST /api/reports': () => ({ reason: 'spam' }),
  'POST /api/subscribe-session': () => ({ plan: 'Pro' }),
  'POST /api/admin/reports/{id}/resolve': () => ({ action: 'dismiss' }),
  'POST /api/testimonials': () => ({ content: 'A great place' }),
  // Saving a subscription sends nothing; the endpoint only has to be a known push service.
  'POST /api/notifications/save-subscription': () => PUSH_SUBSCRIPTION,
  'POST /api/push/subscribe': () => ({ subscription: PUSH_SUBSCRIPTION }),
  'POST /api/servers/{id}/vote': () => ({ playerName: 'Steve' }),
  'PUT /api/servers/{id}/review': () => ({ review: 'Changed my mind: great staff.' }),
  // Targets are checked when saved, like the game's address: GAME_TARGET, so no name is looked up.
  'PUT /api/servers/{id}/rewards/webhook': () => ({ url: 'https://127.0.0.1:9/votes' }),
  'PUT /api/servers/{id}/rewards/votifier': () => ({ version: 2, host: '127.0.0.1', port: 9, token: 'hardening-token' }),
  'POST /api/servers/{id}/api-keys': () => ({ name: 'Plugin' }),
  'POST /api/servers/{id}/events': () => ({ title: 'Event night', details: '', startsAt: new Date(Date.now() + 86_400_000).toISOString() }),
  'POST /api/admin/fraud/actions': () => ({ action: 'release', voteIds: ['1'] }),
};

const QUERY_OVERRIDES: Record<string, () => Record<string, string>> = {
  'DELETE /api/servers/{id}/gallery': () => ({ url: '/uploads/gallery-A.webp' }),
};

let image: Buffer | undefined;

/** A request that would be valid for `op` with the given path ids and body ids. */
export async function validRequest(
  op: Operation,
  ids: { path: Record<string, string>; serverId?: string; userId?: string },
  user: TestUser | undefined,
  extraFields: Record<string, unknown> = {},
): Promise<{ method: Operation['method']; url: string; payload?: string | Buffer; headers: Record<string, string> }> {
  const headers: Record<string, string> = { ...(user?.headers ?? {}) };
  const query = { ...sampleQuery(op, ids), ...(QUERY_OVERRIDES[op.key]?.() ?? {}) };
  const search = new URLSearchParams(query).toString();
  const url = fillPath(op.path, ids.path) + (search ? `?${search}` : '');
  if (op.multipart) {
    const parts = MULTIPART_PARTS[op.key];
    if (!parts) throw new Error(`${op.key} reads multipart: add its valid parts to MULTIPART_PARTS`);
    image ??= await makeImage('png', 32, 32);
    const extra = Object.entries(extraFields).map(([name, value]) => ({ name, value: String(value) }));
    const body = multipart([...parts(image), ...extra]);
    return { method: op.method, url, payload: body.payload, headers: { ...headers, ...body.headers } };
  }
  if (!op.body && Object.keys(extraFields).length === 0) return { method: op.method, url, headers };
  const base = op.body ? (sampleValue(op.body, ids) as Record<string, unknown> | null) : {};
  const body = { ...(base ?? {}), ...(BODY_OVERRIDES[op.key]?.(user) ?? {}), ...extraFields };
  return { method: op.method, url, payload: JSON.stringify(body), headers: { ...headers, 'content-type': 'application/json' } };
}

/** Every table of the app (found, not listed, so a new table is snapshotted too). */
export async function appTables(app: FastifyInstance): Promise<string[]> {
  const rows = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name not like 'kysely_%'
    order by table_name`.execute(app.ctx.db);
  return rows.rows.map((r) => r.name);
}

/** Tables that legitimately change on a refused or read-only request (logs, counters of views). */
export const VOLATILE_TABLES = new Set(['search_log', 'server_views']);

/** The content of every table as one comparable string per table (one round trip: it runs per request). */
export async function snapshot(app: FastifyInstance, tables: string[]): Promise<Map<string, string>> {
  const kept = tables.filter((table) => !VOLATILE_TABLES.has(table) && /^[a-z_0-9]+$/.test(table));
  const query = kept
    .map((table) => `select '${table}' as name, (select coalesce(json_agg(x)::text, '[]') from "${table}" x) as content`)
    .join(' union all ');
  const result = await sql<{ name: string; content: string }>`${sql.raw(query)}`.execute(app.ctx.db);
  const out = new Map<string, string>();
  for (const { name, content } of result.rows) {
    const lines = (JSON.parse(content) as Array<Record<string, unknown>>)
      .map((row) => {
        // A view counter and update times move on reads; they are not the caller's doing.
        const { views: _views, updated_at: _updated, ...rest } = row;
        return JSON.stringify(rest);
      })
      .sort();
    out.set(name, lines.join('\n'));
  }
  return out;
}

/** Names the tables whose content differs between two snapshots. */
export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after.keys()].filter((t) => before.get(t) !== after.get(t));
}
