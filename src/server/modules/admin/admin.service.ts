import type { UserRow } from '../../db/schema';
import type { InTransaction } from '../../db/transaction';
import type { Storage } from '../../adapters/storage';
import type { AdminUser, Analytics, PopularFilter, Revenue, Toggles, TogglesUpdate } from '../../../shared/schemas/admin';
import { centsToDollars, LIMITS } from '../../../shared/limits';
import { MSG } from '../../../shared/messages';
import { badRequest, notFound } from '../../errors';
import { toApiId } from '../../lib/ids';
import { pageTotal } from '../../lib/paging';
import { adminPolicy } from '../../policies/admin.policy';
import { removeStored } from '../servers';
import { PAYMENT_TYPES, type AdminRepository, type UserSearch } from './admin.repository';

/** The site-wide toggles, as the settings service keeps them. */
interface SettingsStore {
  all(): Promise<Toggles>;
  update(changes: TogglesUpdate): Promise<Toggles>;
}

interface Deps {
  repository: AdminRepository;
  inTransaction: InTransaction;
  storage: Storage;
  settings: SettingsStore;
  now: () => Date;
  onChange: () => void;
}

const DAY_MS = 86400_000;

/**
 * The admin dashboard: users, analytics, revenue, popular filters, deletions and the site-wide
 * toggles. Every method is for admins only and checks its actor first.
 */
export function adminService({ repository, inTransaction, storage, settings, now, onChange }: Deps) {
  return {
    /** A page of users matching the search, with the total across all pages. */
    async users(actor: UserRow, query: UserSearch): Promise<{ rows: AdminUser[]; total: number }> {
      adminPolicy.assertIsAdmin(actor);
      const rows = await repository.searchUsers(query);
      const total = await pageTotal(rows, query.offset, async () => {
        const [first] = await repository.searchUsers({ ...query, limit: 1, offset: 0 });
        return first ? Number(first.total) : 0;
      });
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

    /** Users per role, site totals and the last 30 UTC days of sign-ups, every day present. */
    async analytics(actor: UserRow): Promise<Analytics> {
      adminPolicy.assertIsAdmin(actor);
      const since = new Date(now().getTime() - 29 * DAY_MS);
      const [roles, t, signups] = await Promise.all([
        repository.countUsersByRole(),
        repository.siteTotals(),
        repository.signupsPerDay(since),
      ]);
      const count = (role: string) => Number(roles.find((r) => r.role === role)?.n ?? 0);
      const byDay = new Map(signups.map((r) => [r.day, Number(r.n)]));
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
    async revenue(actor: UserRow): Promise<Revenue> {
      adminPolicy.assertIsAdmin(actor);
      const today = Math.floor(now().getTime() / DAY_MS) * DAY_MS;
      const since = new Date(today - 29 * DAY_MS);
      const rows = await repository.paidCentsPerDay(since);
      const empty = () => ({ playerBoost: 0, ownerBoost: 0, subscription: 0, serverOfTheWeekend: 0 });
      const series = Array.from({ length: 30 }, (_, i) => ({
        day: new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10),
        ...empty(),
      }));
      const index = new Map(series.map((s, i) => [s.day, i]));
      for (const row of rows) {
        const i = index.get(row.day);
        if (i !== undefined) series[i]![row.type] += Number(row.cents);
      }
      const sumLast = (days: number) => {
        const out = empty();
        for (const s of series.slice(-days)) for (const type of PAYMENT_TYPES) out[type] += s[type];
        for (const type of PAYMENT_TYPES) out[type] = centsToDollars(out[type]);
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

    /** How often players searched with each filter in the last 30 days, most searched first. */
    async popularFilters(actor: UserRow): Promise<PopularFilter[]> {
      adminPolicy.assertIsAdmin(actor);
      const rows = await repository.filterSearchCounts(new Date(now().getTime() - 30 * DAY_MS), LIMITS.popularFilters);
      return rows.map((r) => ({ filter: r.filter, count: Number(r.count) }));
    },

    /** Deletes a user with their servers, votes, joins and sessions (the row), then their files. */
    async deleteUser(actor: UserRow, id: number): Promise<void> {
      adminPolicy.assertIsAdmin(actor);
      if (id === actor.id) throw badRequest(MSG.cannotDeleteSelf);
      const keys = await inTransaction(async (tx) => {
        const user = await repository.lockUser(id, tx);
        if (!user) throw notFound(MSG.userNotFound);
        const serverIds = await repository.ownedServerIds(id, tx);
        const files = [...(await repository.mediaKeys({ userId: id }, tx)), ...(await repository.mediaKeys({ serverIds }, tx))];
        await repository.uncountUser(id, tx);
        await repository.deleteUser(id, tx);
        return files;
      });
      await removeStored(storage, keys);
      onChange();
    },

    /** Deletes a server with its votes, joins and boosts (the row), then its files. */
    async deleteServer(actor: UserRow, id: number): Promise<void> {
      adminPolicy.assertIsAdmin(actor);
      const keys = await inTransaction(async (tx) => {
        const files = await repository.mediaKeys({ serverIds: [id] }, tx);
        if (!(await repository.deleteServer(id, tx))) throw notFound(MSG.serverNotFound);
        return files;
      });
      await removeStored(storage, keys);
      onChange();
    },

    /** The site-wide toggles (boosting, reviews, maintenance mode). */
    async settings(actor: UserRow): Promise<Toggles> {
      adminPolicy.assertIsAdmin(actor);
      return settings.all();
    },

    /** Changes the toggles given, leaves the others; answers all of them. */
    async updateSettings(actor: UserRow, changes: TogglesUpdate): Promise<Toggles> {
      adminPolicy.assertIsAdmin(actor);
      return settings.update(changes);
    },
  };
}

/** The admin dashboard's operations. */
export type AdminService = ReturnType<typeof adminService>;
