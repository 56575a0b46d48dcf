import { sql, type Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/schema';
import type { Executor } from '../../db/transaction';

/** The admin users list's filters and page. */
export interface UserSearch {
  q?: string | undefined;
  role?: UserRow['role'] | undefined;
  limit: number;
  offset: number;
}

/** Site-wide counts on the analytics page. */
export interface SiteTotals {
  servers: number;
  joins: number;
  likes: number;
  dislikes: number;
  boosts: number;
  pushes: number;
}

/** The payment types revenue is split by. */
export const PAYMENT_TYPES = ['playerBoost', 'ownerBoost', 'subscription', 'serverOfTheWeekend'] as const;

/** `%` and `_` typed in a search mean themselves, not LIKE wildcards. */
const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The admin dashboard's reads and its deletions of users and servers. */
export function adminRepository(db: Kysely<Database>) {
  return {
    /** A page of users, newest first, each with its server count and the total of the whole search. */
    searchUsers(query: UserSearch, tx: Executor = db) {
      let q = tx
        .selectFrom('users')
        .select(['users.id', 'users.username', 'users.role', 'users.email', 'users.subscriptionPlan', 'users.createdAt'])
        .select((eb) => [
          eb
            .selectFrom('servers')
            .select((s) => s.fn.countAll<number>().as('n'))
            .whereRef('servers.ownerId', '=', 'users.id')
            .as('servers'),
          eb.fn.countAll<number>().over().as('total'),
        ]);
      if (query.q)
        q = q.where((eb) =>
          eb.or([
            eb(sql`lower(users.username)`, 'like', `%${likeEscape(query.q!.toLowerCase())}%`),
            eb(sql`lower(users.email)`, 'like', `%${likeEscape(query.q!.toLowerCase())}%`),
          ]),
        );
      if (query.role) q = q.where('users.role', '=', query.role);
      return q.orderBy('users.createdAt', 'desc').orderBy('users.id', 'desc').limit(query.limit).offset(query.offset).execute();
    },

    /** How many users each role has. */
    countUsersByRole(tx: Executor = db) {
      return tx
        .selectFrom('users')
        .select(['role', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('role')
        .execute();
    },

    /** Servers, joins, votes, live boosts and push promotions, counted in one round trip. */
    async siteTotals(tx: Executor = db): Promise<SiteTotals> {
      const result = await sql<SiteTotals>`
          SELECT (SELECT count(*) FROM servers)::int AS servers, (SELECT count(*) FROM joins)::int AS joins,
                 (SELECT count(*) FROM votes WHERE type = 'like')::int AS likes, (SELECT count(*) FROM votes WHERE type = 'dislike')::int AS dislikes,
                 (SELECT coalesce(sum(amount), 0) FROM boosts WHERE revoked_at IS NULL)::int AS boosts, (SELECT count(*) FROM push_promotions)::int AS pushes`.execute(
        tx,
      );
      return result.rows[0]!;
    },

    /** Sign-ups per UTC day since `since`, days without any left out. */
    async signupsPerDay(since: Date, tx: Executor = db) {
      const result = await sql<{
        day: string;
        n: number;
      }>`SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS n FROM users WHERE created_at >= ${since} GROUP BY 1 ORDER BY 1`.execute(
        tx,
      );
      return result.rows;
    },

    /** Cents of paid payments per UTC day and type since `since`: refunds and disputes are not revenue. */
    async paidCentsPerDay(since: Date, tx: Executor = db) {
      const result = await sql<{ day: string; type: (typeof PAYMENT_TYPES)[number]; cents: number }>`
        SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, type, sum(amount_cents)::int AS cents
        FROM payments WHERE status = 'paid' AND created_at >= ${since} GROUP BY 1, 2`.execute(tx);
      return result.rows;
    },

    /** The filters searched with most often since `since`, at most `limit`. */
    filterSearchCounts(since: Date, limit: number, tx: Executor = db) {
      return tx
        .selectFrom('searchLog')
        .select(['filter', (eb) => eb.fn.countAll<number>().as('count')])
        .where('createdAt', '>=', since)
        .groupBy('filter')
        .orderBy('count', 'desc')
        .orderBy('filter')
        .limit(limit)
        .execute();
    },

    /** The user, locked until the transaction ends; undefined when there is none. */
    lockUser(id: number, tx: Executor = db) {
      return tx.selectFrom('users').select('id').where('id', '=', id).forUpdate().executeTakeFirst();
    },

    /** Ids of the servers a user owns. */
    async ownedServerIds(ownerId: number, tx: Executor = db): Promise<number[]> {
      const rows = await tx.selectFrom('servers').select('id').where('ownerId', '=', ownerId).execute();
      return rows.map((s) => s.id);
    },

    /** Storage keys of the files a user uploaded, or of the files of the given servers. */
    mediaKeys(where: { userId?: number; serverIds?: number[] }, tx: Executor = db): Promise<string[]> {
      let q = tx.selectFrom('media').select('storageKey');
      if (where.userId !== undefined) q = q.where('userId', '=', where.userId);
      if (where.serverIds) q = where.serverIds.length ? q.where('serverId', 'in', where.serverIds) : q.where(sql<boolean>`false`);
      return q.execute().then((rows) => rows.map((r) => r.storageKey));
    },

    /**
     * Takes a user's counted votes and joins off the counters of the servers they touched, before
     * the rows go with the user (cascade): counters stay equal to the counted rows.
     */
    async uncountUser(userId: number, tx: Executor = db): Promise<void> {
      await sql`
    UPDATE servers s SET
      likes = s.likes - v.likes,
      dislikes = s.dislikes - v.dislikes
    FROM (SELECT server_id, count(*) FILTER (WHERE type = 'like')::int AS likes, count(*) FILTER (WHERE type = 'dislike')::int AS dislikes
          FROM votes WHERE user_id = ${userId} AND status = 'counted' GROUP BY server_id) v
    WHERE s.id = v.server_id`.execute(tx);
      await sql`
    UPDATE servers s SET total_joins = s.total_joins - j.n
    FROM (SELECT server_id, count(*)::int AS n FROM joins WHERE user_id = ${userId} AND status = 'counted' GROUP BY server_id) j
    WHERE s.id = j.server_id`.execute(tx);
    },

    /** Deletes the user row; their servers, votes, joins and sessions go with it (cascade). */
    async deleteUser(id: number, tx: Executor = db): Promise<void> {
      await tx.deleteFrom('users').where('id', '=', id).execute();
    },

    /** Deletes a server; false when there was none. */
    async deleteServer(id: number, tx: Executor = db): Promise<boolean> {
      const deleted = await tx.deleteFrom('servers').where('id', '=', id).returning('id').executeTakeFirst();
      return deleted !== undefined;
    },
  };
}

/** The admin dashboard's queries. */
export type AdminRepository = ReturnType<typeof adminRepository>;
