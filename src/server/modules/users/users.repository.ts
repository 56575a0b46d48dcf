import { sql, type Kysely } from 'kysely';
import type { Database, NewUser, UserRow } from '../../db/schema';
import type { User } from '../../../shared/schemas/auth';
import { toApiId } from '../../lib/ids';

/** Users in the database. Only this file and other repositories query tables. */
export function usersRepository(db: Kysely<Database>) {
  return {
    findById(id: number): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Usernames are unique case-insensitively (decisions §4). */
    findByUsername(username: string): Promise<UserRow | undefined> {
      return db
        .selectFrom('users')
        .selectAll()
        .where(sql<string>`lower(username)`, '=', username.toLowerCase())
        .executeTakeFirst();
    },

    create(user: NewUser): Promise<UserRow> {
      return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
    },

    async updateEmail(id: number, email: string): Promise<UserRow | undefined> {
      return db.updateTable('users').set({ email, updatedAt: new Date() }).where('id', '=', id).returningAll().executeTakeFirst();
    },

    /**
     * The user an access token names, unless the login session it came from was ended (logout, or a
     * copied refresh token). Tokens without a session (tests' factory tokens) check the user alone.
     */
    findActive(id: number, sessionId: string | undefined): Promise<UserRow | undefined> {
      let query = db.selectFrom('users').selectAll().where('id', '=', id);
      if (sessionId !== undefined) {
        query = query.where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('refreshTokens').select('refreshTokens.id').where('familyId', '=', sessionId).where('revokedAt', 'is not', null),
            ),
          ),
        );
      }
      return query.executeTakeFirst();
    },

    /**
     * Sets a password, bumps the token version (every older access token stops working) and revokes
     * every refresh token, so no device stays logged in with the old password.
     */
    async setPassword(id: number, passwordHash: string, trx: Kysely<Database> = db): Promise<void> {
      await trx
        .updateTable('users')
        .set((eb) => ({ passwordHash, tokenVersion: eb('tokenVersion', '+', 1), updatedAt: new Date() }))
        .where('id', '=', id)
        .execute();
      await trx
        .updateTable('refreshTokens')
        .set({ revokedAt: new Date() })
        .where('userId', '=', id)
        .where('revokedAt', 'is', null)
        .execute();
      // A reset code still open (mailed to an address the owner may have just stopped trusting) dies too.
      await trx.updateTable('resetTokens').set({ usedAt: new Date() }).where('userId', '=', id).where('usedAt', 'is', null).execute();
    },

    async ownsAnyServer(id: number): Promise<boolean> {
      const row = await db.selectFrom('servers').select('id').where('ownerId', '=', id).limit(1).executeTakeFirst();
      return row !== undefined;
    },
  };
}

export type UsersRepository = ReturnType<typeof usersRepository>;

/** The API's user object (decisions §3); nothing private leaves through it. */
export function toApiUser(row: UserRow): User {
  return {
    id: toApiId(row.id),
    username: row.username,
    role: row.role,
    email: row.email,
    subscriptionPlan: row.subscriptionPlan,
    displayName: row.displayName || row.username,
    profilePicture: row.profilePicture,
  };
}
