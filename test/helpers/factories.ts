import type { FastifyInstance } from 'fastify';
import type { UserRow } from '../../src/server/db/schema';
import { hashPassword } from '../../src/server/modules/auth/password';
import { normalizedEmail } from '../../src/server/lib/email-address';

/** The password of every factory user. Hashed once per test file: argon2 is deliberately slow. */
export const TEST_PASSWORD = 'correct-horse-battery';
let hashed: Promise<string> | undefined;

let sequence = 0;
export const uniqueName = (prefix = 'user') => `${prefix}_${process.pid}_${++sequence}`;

export interface TestUser {
  row: UserRow;
  token: string;
  headers: { authorization: string };
}

/**
 * A user written straight to the database (no HTTP, no rate limits) and a valid token for it. Its
 * address counts as confirmed (as if the mailed link had been opened) unless `confirmed: false`;
 * tests of the confirmation itself go through the mail.
 */
export async function createUser(
  app: FastifyInstance,
  attrs: {
    role?: UserRow['role'];
    username?: string;
    email?: string | null;
    plan?: UserRow['subscriptionPlan'];
    confirmed?: boolean;
  } = {},
): Promise<TestUser> {
  hashed ??= hashPassword(TEST_PASSWORD);
  const username = attrs.username ?? uniqueName(attrs.role ?? 'player');
  const email = attrs.email === undefined ? `${username}@example.test` : attrs.email;
  const confirmed = email !== null && attrs.confirmed !== false;
  const row = await app.ctx.db
    .insertInto('users')
    .values({
      username,
      passwordHash: await hashed,
      role: attrs.role ?? 'player',
      email,
      emailConfirmedAt: confirmed ? new Date() : null,
      emailKey: confirmed ? normalizedEmail(email) : null,
      subscriptionPlan: attrs.plan ?? '',
      profilePicture: null,
      stripeCustomerId: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const token = await app.ctx.tokens.sign({ userId: row.id, version: row.tokenVersion });
  return { row, token, headers: { authorization: `Bearer ${token}` } };
}

/**
 * The headers of a session of `username` that was then logged out: a token the app signed whose
 * account no longer accepts it (what a thief holds after the owner logs out).
 */
export async function loggedOutSession(app: FastifyInstance, username: string): Promise<{ authorization: string }> {
  const login = await app.inject({ method: 'POST', url: '/api/login', payload: { username, password: TEST_PASSWORD } });
  if (login.statusCode !== 200) throw new Error(`login of ${username} answered ${login.statusCode}`);
  const headers = { authorization: `Bearer ${login.json<{ token: string }>().token}` };
  const logout = await app.inject({ method: 'POST', url: '/api/logout', headers });
  if (logout.statusCode !== 200) throw new Error(`logout of ${username} answered ${logout.statusCode}`);
  return headers;
}

/**
 * A server row owned by `ownerId`, with optional counters; one given players counts as polled and
 * online (only the game poller gives counts).
 */
export async function createServer(app: FastifyInstance, ownerId: number, attrs: { name?: string; currentPlayers?: number } = {}) {
  return app.ctx.db
    .insertInto('servers')
    .values({
      ownerId,
      name: attrs.name ?? uniqueName('Server'),
      currentPlayers: attrs.currentPlayers ?? 0,
      online: attrs.currentPlayers ? true : null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Raw poll samples of `serverId`, written behind the app: one per count in `players`, ten minutes
 * apart from the top of the hour `at` falls in (online when it has players).
 */
export async function insertPollSamples(app: FastifyInstance, serverId: number, at: Date, players: readonly number[]): Promise<void> {
  const hour = Math.floor(at.getTime() / 3600_000) * 3600_000;
  await app.ctx.db
    .insertInto('playerCountSamples')
    .values(
      players.map((count, i) => ({
        serverId,
        sampledAt: new Date(hour + i * 600_000),
        resolution: 'raw' as const,
        players: count,
        online: count > 0,
        samples: 1,
        onlineSamples: count > 0 ? 1 : 0,
      })),
    )
    .execute();
}

/** `PUT /api/servers/{id}/game` as `user`: the game and address the server is polled at (polled at once). */
export function putGame(app: FastifyInstance, serverId: number, user: Pick<TestUser, 'headers'>, payload: object) {
  return app.inject({ method: 'PUT', url: `/api/servers/${serverId}/game`, headers: user.headers, payload });
}

/**
 * Proves control of the address the owner connected, as an owner would: reads the claim's code,
 * has the test's game server report it (`putCode`), then presses "Check now". Answers the check.
 */
export async function proveGame(app: FastifyInstance, serverId: number, user: Pick<TestUser, 'headers'>, putCode: (code: string) => void) {
  const status = (await app.inject({ url: `/api/servers/${serverId}/game`, headers: user.headers })).json();
  if (!status.claim?.code) throw new Error(`server ${serverId} has no claim to prove`);
  putCode(status.claim.code);
  return app.inject({ method: 'POST', url: `/api/servers/${serverId}/game/check`, headers: user.headers });
}
