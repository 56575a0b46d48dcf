import type { FastifyInstance } from 'fastify';
import type { UserRow } from '../../src/server/db/schema';
import { hashPassword } from '../../src/server/modules/auth/password';

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

/** A user written straight to the database (no HTTP, no rate limits) and a valid token for it. */
export async function createUser(
  app: FastifyInstance,
  attrs: { role?: UserRow['role']; username?: string; email?: string | null; plan?: UserRow['subscriptionPlan'] } = {},
): Promise<TestUser> {
  hashed ??= hashPassword(TEST_PASSWORD);
  const username = attrs.username ?? uniqueName(attrs.role ?? 'player');
  const row = await app.ctx.db
    .insertInto('users')
    .values({
      username,
      passwordHash: await hashed,
      role: attrs.role ?? 'player',
      email: attrs.email === undefined ? `${username}@example.test` : attrs.email,
      subscriptionPlan: attrs.plan ?? '',
      profilePicture: null,
      stripeCustomerId: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const token = await app.ctx.tokens.sign({ userId: row.id, version: row.tokenVersion });
  return { row, token, headers: { authorization: `Bearer ${token}` } };
}

/** A server row owned by `ownerId`, with optional counters. */
export async function createServer(app: FastifyInstance, ownerId: number, attrs: { name?: string; currentPlayers?: number } = {}) {
  return app.ctx.db
    .insertInto('servers')
    .values({
      ownerId,
      name: attrs.name ?? uniqueName('Server'),
      currentPlayers: attrs.currentPlayers ?? 0,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
