import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, DiscordSignupsTable, OauthStatesTable, UserRow } from '../../db/schema';
import type { Executor } from '../../db/transaction';

export type OauthStateRow = Selectable<OauthStatesTable>;
export type DiscordSignupRow = Selectable<DiscordSignupsTable>;

/** Authorizations under way, sign-ups waiting for a username, and the Discord side of users. */
export function discordRepository(db: Kysely<Database>) {
  return {
    /** A new authorization; rows that ended over a day ago go at the same time (they are never read again). */
    async insertState(state: Omit<OauthStateRow, 'id' | 'usedAt' | 'createdAt'>, now: Date): Promise<void> {
      await db
        .deleteFrom('oauthStates')
        .where('expiresAt', '<', new Date(now.getTime() - 86_400_000))
        .execute();
      await db.insertInto('oauthStates').values(state).execute();
    },

    /**
     * Uses an authorization once: the row named by the state's hash, bound to this browser, not used
     * and not expired, is marked used in the statement that reads it. Undefined for anything else.
     */
    takeState: (stateHash: string, bindingHash: string, now: Date): Promise<OauthStateRow | undefined> =>
      db
        .updateTable('oauthStates')
        .set({ usedAt: now })
        .where('stateHash', '=', stateHash)
        .where('bindingHash', '=', bindingHash)
        .where('usedAt', 'is', null)
        .where('expiresAt', '>', now)
        .returningAll()
        .executeTakeFirst(),

    async insertSignup(signup: Omit<DiscordSignupRow, 'id' | 'usedAt' | 'createdAt'>, now: Date): Promise<void> {
      await db
        .deleteFrom('discordSignups')
        .where('expiresAt', '<', new Date(now.getTime() - 86_400_000))
        .execute();
      await db.insertInto('discordSignups').values(signup).execute();
    },

    /** A sign-up still waiting for its username (not used, not expired), for the browser it is bound to. */
    findSignup: (tokenHash: string, bindingHash: string, now: Date, tx: Executor = db): Promise<DiscordSignupRow | undefined> =>
      tx
        .selectFrom('discordSignups')
        .selectAll()
        .where('tokenHash', '=', tokenHash)
        .where('bindingHash', '=', bindingHash)
        .where('usedAt', 'is', null)
        .where('expiresAt', '>', now)
        .executeTakeFirst(),

    /** Marks a sign-up used, once: false when another request used it first. */
    async useSignup(id: number, now: Date, tx: Executor): Promise<boolean> {
      const used = await tx
        .updateTable('discordSignups')
        .set({ usedAt: now })
        .where('id', '=', id)
        .where('usedAt', 'is', null)
        .executeTakeFirst();
      return Number(used.numUpdatedRows) === 1;
    },

    findByDiscordId: (discordId: string, tx: Executor = db): Promise<UserRow | undefined> =>
      tx.selectFrom('users').selectAll().where('discordId', '=', discordId).executeTakeFirst(),

    /**
     * Links a Discord account to a user who has none linked, while the user's token version is the
     * one the link began with: a password change since then (which ends every session) ends it, and
     * of two links started at once only the first to return links (the unique index refuses an
     * account linked elsewhere). The Discord age kept is the younger of this account's and any
     * linked before: relinking must not make a young account look old to the hold rules. False
     * when nothing was linked.
     */
    async link(
      userId: number,
      discord: { id: string; username: string; createdAt: Date },
      tokenVersion: number,
      at: Date,
      tx: Executor = db,
    ): Promise<boolean> {
      const done = await tx
        .updateTable('users')
        .set({
          discordId: discord.id,
          discordUsername: discord.username,
          // GREATEST skips a null: an account never linked takes this one's age.
          discordCreatedAt: sql<Date>`greatest(${sql.ref('discordCreatedAt')}, ${discord.createdAt})`,
          discordLinkedAt: at,
          updatedAt: at,
        })
        .where('id', '=', userId)
        .where('discordId', 'is', null)
        .where('tokenVersion', '=', tokenVersion)
        .executeTakeFirst();
      return Number(done.numUpdatedRows) === 1;
    },

    /** Unlinks, only while the account keeps a password: false when it has none. */
    async unlink(userId: number, at: Date): Promise<boolean> {
      const done = await db
        .updateTable('users')
        // The Discord account's age stays: unlinking must not make a young account look old to the hold rules.
        .set({ discordId: null, discordUsername: null, discordLinkedAt: null, updatedAt: at })
        .where('id', '=', userId)
        .where('passwordHash', 'is not', null)
        .executeTakeFirst();
      return Number(done.numUpdatedRows) === 1;
    },
  };
}

export type DiscordRepository = ReturnType<typeof discordRepository>;
