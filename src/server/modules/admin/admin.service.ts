import { sql, type Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/schema';
import type { Storage } from '../../adapters/storage';
import type { AdminUser, Analytics, Revenue } from '../../../shared/schemas/admin';
import { centsToDollars, LIMITS } from '../../../shared/limits';
import { MSG } from '../../../shared/messages';
import { badRequest, notFound } from '../../errors';
import { parseId, toApiId } from '../../lib/ids';
import { pageTotal } from '../../lib/paging';
import { removeStored } from '../servers/media';

interface Deps {
  db: Kysely<Database>;
  storage: Storage;
  now: () => Date;
  onChange: () => void;
}

const DAY_MS = 86400_000;
const TYPES = ['playerBoost', 'ownerBoost', 'subscription', 'serverOfTheWeekend'] as const;
const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Takes a user's votes and joins off the counters of the servers they touched, before the rows
 * go with the user (cascade): counters stay equal to the rows (issue 6).
 */
async function uncount(trx: Kysely<Database>, userId: number): Promise<void> {
  await sql`
    UPDATE servers s SET
      likes = s.likes - v.likes,
      dislikes = s.dislikes - v.dislikes
    FROM (SELECT server_id, count(*) FILTER (WHERE type = 'like')::int AS likes, count(*) FILTER (WHERE type = 'dislike')::int AS dislikes
          FROM votes WHERE user_id = ${userId} GROUP BY server_id) v
    WHERE s.id = v.server_id`.execute(trx);
  await sql`
    UPDATE servers s SET total_joins = s.total_joins - j.n
    FROM (SELECT server_id, count(*)::int AS n FROM joins WHERE user_id = ${userId} GROUP BY server_id) j
    WHERE s.id = j.server_id`.execute(trx);
}

/** The admin dashboard (issue 6): users, analytics, revenue, popular filters, deletions. */
export function adminService({ db, storage, now, onChange }: Deps) {
  const mediaKeys = (trx: Kysely<Database>, where: { userId?: number; serverIds?: number[] }) => {
    let q = trx.selectFrom('media').select('storageKey');
    if (where.userId !== undefined) q = q.where('userId', '=', where.userId);
    if (where.serverIds) q = where.serverIds.length ? q.where('serverId', 'in', where.serverIds) : q.where(sql<boolean>`false`);
    return q.execute().then((rows) => rows.map((r) => r.storageKey));
  };

  return {
    async users(query: {
      q?: string | undefined;
      role?: UserRow['role'] | undefined;
      limit: number;
      offset: number;
    }): Promise<{ rows: AdminUser[]; total: number }> {
      let q = db
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
      const rows = await q.orderBy('users.createdAt', 'desc').orderBy('users.id', 'desc').limit(query.limit).offset(query.offset).execute();
      const total = await pageTotal(rows, query.offset, async () => (await this.users({ ...query, limit: 1, offset: 0 })).total);
      return {
        rows: rows.map((u) => ({
          id: toApiId(u.id),
          username: u.username,
          role: u.role,
          email: u.email,
          subscriptionPlan: u.subscriptionPlan,
          servers: Number(u.servers ?? 0),
          createdAt: u.createdAt.toISOString(),
        })),
        total,
      };
    },

    async analytics(): Promise<Analytics> {
      const since = new Date(now().getTime() - 29 * DAY_MS);
      const [roles, totals, signups] = await Promise.all([
        db
          .selectFrom('users')
          .select(['role', (eb) => eb.fn.countAll<number>().as('n')])
          .groupBy('role')
          .execute(),
        sql<{ servers: number; joins: number; likes: number; dislikes: number; boosts: number; pushes: number }>`
          SELECT (SELECT count(*) FROM servers)::int AS servers, (SELECT count(*) FROM joins)::int AS joins,
                 (SELECT count(*) FROM votes WHERE type = 'like')::int AS likes, (SELECT count(*) FROM votes WHERE type = 'dislike')::int AS dislikes,
                 (SELECT coalesce(sum(amount), 0) FROM boosts WHERE revoked_at IS NULL)::int AS boosts, (SELECT count(*) FROM push_promotions)::int AS pushes`.execute(
          db,
        ),
        sql<{
          day: string;
          n: number;
        }>`SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS n FROM users WHERE created_at >= ${since} GROUP BY 1 ORDER BY 1`.execute(
          db,
        ),
      ]);
      const t = totals.rows[0]!;
      const count = (role: string) => Number(roles.find((r) => r.role === role)?.n ?? 0);
      const byDay = new Map(signups.rows.map((r) => [r.day, Number(r.n)]));
      return {
        users: { player: count('player'), server_owner: count('server_owner'), admin: count('admin') },
        servers: t.servers,
        joins: t.joins,
        likes: t.likes,
        dislikes: t.dislikes,
        boosts: t.boosts,
        pushPromotions: t.pushes,
        signups: Array.from({ length: 30 }, (_, i) => {
          const day = new Date(Math.floor(since.getTime() / DAY_MS) * DAY_MS + i * DAY_MS).toISOString().slice(0, 10);
          return { day, count: byDay.get(day) ?? 0 };
        }),
      };
    },

    /** Paid payments only: refunds and disputes are not revenue. */
    async revenue(): Promise<Revenue> {
      const today = Math.floor(now().getTime() / DAY_MS) * DAY_MS;
      const since = new Date(today - 29 * DAY_MS);
      const rows = await sql<{ day: string; type: (typeof TYPES)[number]; cents: number }>`
        SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, type, sum(amount_cents)::int AS cents
        FROM payments WHERE status = 'paid' AND created_at >= ${since} GROUP BY 1, 2`.execute(db);
      const empty = () => ({ playerBoost: 0, ownerBoost: 0, subscription: 0, serverOfTheWeekend: 0 });
      const series = Array.from({ length: 30 }, (_, i) => ({
        day: new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10),
        ...empty(),
      }));
      const index = new Map(series.map((s, i) => [s.day, i]));
      for (const row of rows.rows) {
        const i = index.get(row.day);
        if (i !== undefined) series[i]![row.type] += Number(row.cents);
      }
      const sumLast = (days: number) => {
        const out = empty();
        for (const s of series.slice(-days)) for (const type of TYPES) out[type] += s[type];
        for (const type of TYPES) out[type] = centsToDollars(out[type]);
        return out;
      };
      return {
        daily: sumLast(1),
        weekly: sumLast(7),
        monthly: sumLast(30),
        series: series.map((s) => ({
          day: s.day,
          playerBoost: centsToDollars(s.playerBoost),
          ownerBoost: centsToDollars(s.ownerBoost),
          subscription: centsToDollars(s.subscription),
          serverOfTheWeekend: centsToDollars(s.serverOfTheWeekend),
        })),
      };
    },

    /** How often players searched with each filter in the last 30 days (decisions §5). */
    async popularFilters() {
      const rows = await db
        .selectFrom('searchLog')
        .select(['filter', (eb) => eb.fn.countAll<number>().as('count')])
        .where('createdAt', '>=', new Date(now().getTime() - 30 * DAY_MS))
        .groupBy('filter')
        .orderBy('count', 'desc')
        .orderBy('filter')
        .limit(LIMITS.popularFilters)
        .execute();
      return rows.map((r) => ({ filter: r.filter, count: Number(r.count) }));
    },

    /** Deletes a user with their servers, votes, joins and sessions (the row), then their files. */
    async deleteUser(actor: UserRow, rawId: string): Promise<void> {
      const id = parseId(rawId);
      if (!id) throw notFound(MSG.userNotFound);
      if (id === actor.id) throw badRequest(MSG.cannotDeleteSelf);
      const keys = await db.transaction().execute(async (trx) => {
        const user = await trx.selectFrom('users').select('id').where('id', '=', id).forUpdate().executeTakeFirst();
        if (!user) throw notFound(MSG.userNotFound);
        const servers = await trx.selectFrom('servers').select('id').where('ownerId', '=', id).execute();
        const files = [...(await mediaKeys(trx, { userId: id })), ...(await mediaKeys(trx, { serverIds: servers.map((s) => s.id) }))];
        await uncount(trx, id);
        await trx.deleteFrom('users').where('id', '=', id).execute();
        return files;
      });
      await removeStored(storage, keys);
      onChange();
    },

    async deleteServer(rawId: string): Promise<void> {
      const id = parseId(rawId);
      if (!id) throw notFound(MSG.serverNotFound);
      const keys = await db.transaction().execute(async (trx) => {
        const files = await mediaKeys(trx, { serverIds: [id] });
        const deleted = await trx.deleteFrom('servers').where('id', '=', id).returning('id').executeTakeFirst();
        if (!deleted) throw notFound(MSG.serverNotFound);
        return files;
      });
      await removeStored(storage, keys);
      onChange();
    },
  };
}

export type AdminService = ReturnType<typeof adminService>;
