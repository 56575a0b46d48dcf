import type { Locale } from '../../../shared/i18n/locales';
import { sql, type Kysely } from 'kysely';
import { preparedMarker } from '../../db/database';
import type { Database, NewUser, UserRow } from '../../db/schema';
import type { Executor } from '../../db/transaction';

/**
 * The sign-in check runs on most signed-in requests: prepared, its planning (~0.12 ms, twice its
 * run) is done once per connection.
 */
const ACTIVE_USERS = preparedMarker('active-users');

/** Users in the database. Only this file and other repositories query tables. */
export function usersRepository(db: Kysely<Database>) {
  /**
   * The users table's columns as this process found them, spelled out: a prepared `u.*` fails
   * ("cached plan must not change result type") once a migration adds a column, as it does for
   * instances still running during a rolling deploy. Read once, on the first sign-in check.
   */
  let userColumns: Promise<string> | undefined;
  const columnsOfUsers = () =>
    (userColumns ??= sql<{ name: string }>`
      SELECT column_name AS name FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = 'users' ORDER BY ordinal_position`
      .execute(db)
      .then(({ rows }) => rows.map(({ name }) => `u."${name.replaceAll('"', '""')}"`).join(', '))
      .catch((error: unknown) => {
        userColumns = undefined;
        throw error;
      }));

  return {
    findById(id: number, tx: Executor = db): Promise<UserRow | undefined> {
      return tx.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Usernames are unique case-insensitively: "Chief" and "chief" are one account. */
    findByUsername(username: string, tx: Executor = db): Promise<UserRow | undefined> {
      return tx
        .selectFrom('users')
        .selectAll()
        .where(sql<string>`lower(username)`, '=', username.toLowerCase())
        .executeTakeFirst();
    },

    create(user: NewUser, tx: Executor = db): Promise<UserRow> {
      return tx.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
    },

    async updateEmail(id: number, email: string): Promise<UserRow | undefined> {
      return db.updateTable('users').set({ email, updatedAt: new Date() }).where('id', '=', id).returningAll().executeTakeFirst();
    },

    /** Saves the language the user chose; the updated row. */
    async setLocale(id: number, locale: Locale): Promise<UserRow | undefined> {
      return db.updateTable('users').set({ locale, updatedAt: new Date() }).where('id', '=', id).returningAll().executeTakeFirst();
    },

    /** Replaces the address as it is (no confirmation state changes): the admin bootstrap's own address, or none. */
    async setEmail(id: number, email: string | null, tx: Executor = db): Promise<void> {
      await tx.updateTable('users').set({ email, updatedAt: new Date() }).where('id', '=', id).execute();
    },

    /** Saves an address that is not confirmed yet (an account's first one, waiting for its link). */
    async setUnconfirmedEmail(id: number, email: string, at: Date, tx: Executor = db): Promise<void> {
      await tx.updateTable('users').set({ email, emailConfirmedAt: null, updatedAt: at }).where('id', '=', id).execute();
    },

    /**
     * Saves an address whose mailed link was opened at `at`, with its mailbox key; the unique index
     * on the key refuses a mailbox another account confirmed first (a unique violation).
     */
    async setConfirmedEmail(id: number, email: string, emailKey: string, at: Date, tx: Executor = db): Promise<void> {
      await tx.updateTable('users').set({ email, emailKey, emailConfirmedAt: at, updatedAt: at }).where('id', '=', id).execute();
    },

    /** The account that confirmed this mailbox, if any. */
    async findIdByEmailKey(emailKey: string, tx: Executor = db): Promise<number | undefined> {
      const row = await tx.selectFrom('users').select('id').where('emailKey', '=', emailKey).executeTakeFirst();
      return row?.id;
    },

    /**
     * The users access tokens name, one answer per token in order, each undefined when the user is
     * gone or the login session the token came from was ended (logout, or a copied refresh token).
     * Tokens without a session (tests' factory tokens) check the user alone. One query for many
     * requests (see `activeUserLoader`).
     */
    async findActiveMany(tokens: ReadonlyArray<{ id: number; sessionId: string | undefined }>): Promise<Array<UserRow | undefined>> {
      if (tokens.length === 0) return [];
      const columns = await columnsOfUsers();
      const result = await sql<UserRow & { n: number }>`${sql.raw(ACTIVE_USERS)}
        SELECT k.n, ${sql.raw(columns)}
        FROM unnest(${tokens.map((t) => t.id)}::bigint[], ${tokens.map((t) => t.sessionId ?? null)}::text[]) WITH ORDINALITY AS k(id, session_id, n)
        JOIN users u ON u.id = k.id
        WHERE k.session_id IS NULL
          OR NOT EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.family_id = k.session_id AND r.revoked_at IS NOT NULL)`.execute(db);
      const found = new Array<UserRow | undefined>(tokens.length);
      for (const { n, ...user } of result.rows) found[n - 1] = user;
      return found;
    },

    /**
     * Sets a password, bumps the token version (every older access token stops working) and revokes
     * every refresh token, so no device stays logged in with the old password.
     */
    async setPassword(id: number, passwordHash: string, tx: Executor = db): Promise<void> {
      await tx
        .updateTable('users')
        .set((eb) => ({ passwordHash, tokenVersion: eb('tokenVersion', '+', 1), updatedAt: new Date() }))
        .where('id', '=', id)
        .execute();
      await tx
        .updateTable('refreshTokens')
        .set({ revokedAt: new Date() })
        .where('userId', '=', id)
        .where('revokedAt', 'is', null)
        .execute();
      // A reset code still open (mailed to an address the owner may have just stopped trusting) dies too.
      await tx.updateTable('resetTokens').set({ usedAt: new Date() }).where('userId', '=', id).where('usedAt', 'is', null).execute();
    },

    async ownsAnyServer(id: number): Promise<boolean> {
      const row = await db.selectFrom('servers').select('id').where('ownerId', '=', id).limit(1).executeTakeFirst();
      return row !== undefined;
    },
  };
}

export type UsersRepository = ReturnType<typeof usersRepository>;
