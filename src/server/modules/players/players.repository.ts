import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';

/** A server as a profile lists it. */
export interface ServerSummaryRow {
  id: number;
  name: string;
  profilePicture: string | null;
}

/** Reads and writes of player profiles: the user, what they joined, voted and boosted, their avatar. */
export function playersRepository(db: Kysely<Database>) {
  return {
    /** The user a profile shows, or undefined. */
    findUser: (id: number, tx: Executor = db) =>
      tx.selectFrom('users').select(['id', 'username', 'displayName', 'profilePicture']).where('id', '=', id).executeTakeFirst(),

    /** Listed servers the user joined, newest first. */
    joinedServers: (userId: number, limit: number, tx: Executor = db): Promise<ServerSummaryRow[]> =>
      tx
        .selectFrom('joins')
        .innerJoin('servers', 'servers.id', 'joins.serverId')
        .select(['servers.id', 'servers.name', 'servers.profilePicture'])
        .where('joins.userId', '=', userId)
        .where('servers.hidden', '=', false)
        .orderBy('joins.createdAt', 'desc')
        .limit(limit)
        .execute(),

    /** Likes and dislikes the user gave, one row per type they gave any of. */
    votesGiven: (userId: number, tx: Executor = db) =>
      tx
        .selectFrom('votes')
        .select(['type', (eb) => eb.fn.countAll<number>().as('n')])
        .where('userId', '=', userId)
        .groupBy('type')
        .execute(),

    /** Boosts the user bought themselves and still stand (not revoked). */
    async boostsGiven(userId: number, tx: Executor = db): Promise<number> {
      const row = await tx
        .selectFrom('boosts')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('n'))
        .where('userId', '=', userId)
        .where('source', '=', 'player')
        .where('revokedAt', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Servers the user boosted (standing boosts), the most recently boosted first. */
    boostedServers: (userId: number, limit: number, tx: Executor = db): Promise<ServerSummaryRow[]> =>
      tx
        .selectFrom('boosts')
        .innerJoin('servers', 'servers.id', 'boosts.serverId')
        .select(['servers.id', 'servers.name', 'servers.profilePicture', (eb) => eb.fn.max('boosts.createdAt').as('last')])
        .where('boosts.userId', '=', userId)
        .where('boosts.source', '=', 'player')
        .where('boosts.revokedAt', 'is', null)
        .groupBy(['servers.id', 'servers.name', 'servers.profilePicture'])
        .orderBy('last', 'desc')
        .limit(limit)
        .execute(),

    /** Deletes the user's avatar rows and returns their files' storage keys. */
    async removeAvatars(userId: number, tx: Executor = db): Promise<string[]> {
      const rows = await tx.deleteFrom('media').where('userId', '=', userId).where('kind', '=', 'avatar').returning('storageKey').execute();
      return rows.map((p) => p.storageKey);
    },

    /** Records a stored avatar file of the user. */
    async addAvatar(userId: number, image: { storageKey: string; width: number; height: number; bytes: number }, tx: Executor = db) {
      await tx
        .insertInto('media')
        .values({
          userId,
          kind: 'avatar',
          storageKey: image.storageKey,
          width: image.width,
          height: image.height,
          bytes: image.bytes,
        })
        .execute();
    },

    /** Sets the display name and/or picture given; `updatedAt` moves either way. */
    async updateProfile(userId: number, changes: { displayName?: string; profilePicture?: string }, tx: Executor = db) {
      await tx
        .updateTable('users')
        .set({ ...changes, updatedAt: new Date() })
        .where('id', '=', userId)
        .execute();
    },
  };
}

export type PlayersRepository = ReturnType<typeof playersRepository>;
