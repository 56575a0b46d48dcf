import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, RefreshTokensTable } from '../../db/schema';
import type { Executor } from '../../db/transaction';

/** A stored refresh token: its SHA-256, its login session (family) and its state. */
export type RefreshTokenRow = Selectable<RefreshTokensTable>;

/** Refresh tokens in the database, found by their SHA-256; one family per login session. */
export function sessionsRepository(db: Kysely<Database>) {
  return {
    /** Stores one refresh token of a session. */
    async insert(token: Insertable<RefreshTokensTable>, tx: Executor = db): Promise<void> {
      await tx.insertInto('refreshTokens').values(token).execute();
    },

    findByHash(tokenHash: string, tx: Executor = db): Promise<RefreshTokenRow | undefined> {
      return tx.selectFrom('refreshTokens').selectAll().where('tokenHash', '=', tokenHash).executeTakeFirst();
    },

    /**
     * Marks a token used, unless it already was: true when this call used it. Only one of two
     * racing uses gets true, which is how a copied token is told from its rightful use.
     */
    async claim(id: number, at: Date, tx: Executor = db): Promise<boolean> {
      const claimed = await tx
        .updateTable('refreshTokens')
        .set({ usedAt: at })
        .where('id', '=', id)
        .where('usedAt', 'is', null)
        .returning('id')
        .executeTakeFirst();
      return claimed !== undefined;
    },

    /** Revokes every token of a session still open, which also ends the access tokens it issued. */
    async revokeFamily(familyId: string, at: Date, tx: Executor = db): Promise<void> {
      await tx
        .updateTable('refreshTokens')
        .set({ revokedAt: at })
        .where('familyId', '=', familyId)
        .where('revokedAt', 'is', null)
        .execute();
    },

    /** Deletes the tokens that expired before `cutoff`; how many went. */
    async deleteExpiredBefore(cutoff: Date): Promise<number> {
      const result = await db.deleteFrom('refreshTokens').where('expiresAt', '<', cutoff).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** The session and user of a stored token. */
    findFamily(tokenHash: string): Promise<{ familyId: string; userId: number } | undefined> {
      return db.selectFrom('refreshTokens').select(['familyId', 'userId']).where('tokenHash', '=', tokenHash).executeTakeFirst();
    },
  };
}

export type SessionsRepository = ReturnType<typeof sessionsRepository>;
