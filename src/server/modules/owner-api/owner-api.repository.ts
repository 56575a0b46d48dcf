import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';

/** API keys and what the owner API reads: one server's daily votes. */
export function ownerApiRepository(db: Kysely<Database>) {
  return {
    findServer(serverId: number, tx: Executor = db) {
      return tx.selectFrom('servers').select(['id', 'ownerId', 'hidden']).where('id', '=', serverId).executeTakeFirst();
    },

    listKeys(serverId: number, tx: Executor = db) {
      return tx
        .selectFrom('apiKeys')
        .select(['id', 'name', 'prefix', 'createdAt', 'lastUsedAt'])
        .where('serverId', '=', serverId)
        .where('revokedAt', 'is', null)
        .orderBy('createdAt')
        .orderBy('id')
        .execute();
    },

    countKeys(serverId: number, tx: Executor = db) {
      return tx
        .selectFrom('apiKeys')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('serverId', '=', serverId)
        .where('revokedAt', 'is', null)
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n));
    },

    insertKey(key: { serverId: number; name: string; prefix: string; hash: string }, tx: Executor = db) {
      return tx.insertInto('apiKeys').values(key).returning(['id', 'name', 'prefix', 'createdAt', 'lastUsedAt']).executeTakeFirstOrThrow();
    },

    /** Revokes a key of this server; false when there is no such live key. */
    async revokeKey(serverId: number, keyId: number, at: Date, tx: Executor = db): Promise<boolean> {
      const result = await tx
        .updateTable('apiKeys')
        .set({ revokedAt: at })
        .where('id', '=', keyId)
        .where('serverId', '=', serverId)
        .where('revokedAt', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** A live key by its prefix, with its server. */
    findKey(prefix: string, tx: Executor = db) {
      return tx
        .selectFrom('apiKeys')
        .select(['id', 'serverId', 'hash', 'lastUsedAt'])
        .where('prefix', '=', prefix)
        .where('revokedAt', 'is', null)
        .executeTakeFirst();
    },

    async touchKey(id: number, at: Date, tx: Executor = db): Promise<void> {
      await tx.updateTable('apiKeys').set({ lastUsedAt: at }).where('id', '=', id).execute();
    },

    /** Counted daily votes on a server, oldest first, after an id and/or since a time. */
    votes(serverId: number, options: { since?: Date | undefined; after?: number | undefined; limit: number }, tx: Executor = db) {
      let query = tx
        .selectFrom('dailyVotes')
        .innerJoin('users', 'users.id', 'dailyVotes.userId')
        .select(['dailyVotes.id', 'users.username', 'dailyVotes.playerName', 'dailyVotes.createdAt'])
        .where('dailyVotes.serverId', '=', serverId)
        .where('dailyVotes.status', '=', 'counted');
      if (options.since) query = query.where('dailyVotes.createdAt', '>=', options.since);
      if (options.after) query = query.where('dailyVotes.id', '>', options.after);
      return query.orderBy('dailyVotes.id').limit(options.limit).execute();
    },

    /** The latest counted vote on a server by an in-game name or a site username, since a time. */
    latestBy(serverId: number, player: string, since: Date, tx: Executor = db) {
      return tx
        .selectFrom('dailyVotes')
        .innerJoin('users', 'users.id', 'dailyVotes.userId')
        .select('dailyVotes.createdAt')
        .where('dailyVotes.serverId', '=', serverId)
        .where('dailyVotes.status', '=', 'counted')
        .where('dailyVotes.createdAt', '>', since)
        .where((eb) =>
          eb.or([
            eb(sql`lower(daily_votes.player_name)`, '=', player.toLowerCase()),
            eb(sql`lower(users.username)`, '=', player.toLowerCase()),
          ]),
        )
        .orderBy('dailyVotes.createdAt', 'desc')
        .limit(1)
        .executeTakeFirst();
    },
  };
}

/** The owner API's data, as its service receives it. */
export type OwnerApiRepository = ReturnType<typeof ownerApiRepository>;
