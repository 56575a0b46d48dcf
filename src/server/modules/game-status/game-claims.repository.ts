import { sql, type Kysely, type Selectable } from 'kysely';
import type { ClaimAnswer, Database, GameClaimsTable } from '../../db/schema';
import type { Executor } from '../../db/transaction';

export type ClaimRow = Selectable<GameClaimsTable>;

/** What a new claim is made of. */
export interface NewClaim {
  serverId: number;
  game: string;
  host: string;
  hostKey: string;
  port: number;
  ip: string | null;
  cfxCode: string | null;
  code: string;
  nextCheckAt: Date | null;
}

/** A claim as the admins' list shows it, with its listing and owner. */
export interface AdminClaimRow extends ClaimRow {
  serverName: string;
  ownerId: number;
  ownerUsername: string;
}

/** Queries of address claims: the live claim of a listing, the verified one of an address, and their history. */
export function gameClaimsRepository(db: Kysely<Database>) {
  return {
    /** The listing's pending or verified claim, locked when in a transaction that changes it. */
    live: (serverId: number, tx: Executor = db, lock = false): Promise<ClaimRow | undefined> => {
      const query = tx.selectFrom('gameClaims').selectAll().where('serverId', '=', serverId).where('status', '<>', 'ended');
      return (lock ? query.forUpdate() : query).executeTakeFirst();
    },

    byId: (id: number, tx: Executor = db, lock = false): Promise<ClaimRow | undefined> => {
      const query = tx.selectFrom('gameClaims').selectAll().where('id', '=', id);
      return (lock ? query.forUpdate() : query).executeTakeFirst();
    },

    async insert(claim: NewClaim, tx: Executor = db): Promise<ClaimRow> {
      return tx
        .insertInto('gameClaims')
        .values({ ...claim, status: 'pending' })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** Ends a claim (the owner changed or removed it, an admin revoked it, another listing proved control). */
    async end(
      id: number,
      reason: 'changed' | 'removed' | 'revoked' | 'superseded',
      at: Date,
      tx: Executor = db,
      by: { endedBy?: number; supersededBy?: number } = {},
    ) {
      await tx
        .updateTable('gameClaims')
        .set({ status: 'ended', endedReason: reason, endedAt: at, nextCheckAt: null, ...by })
        .where('id', '=', id)
        .execute();
    },

    /**
     * The owner saved the same address again: its join code and spelling may change, and a pending
     * claim starts its checks afresh (due now, no failures counted).
     */
    async resave(id: number, change: { cfxCode: string | null; host: string }, at: Date, tx: Executor = db) {
      await tx
        .updateTable('gameClaims')
        .set((eb) => ({
          ...change,
          checkFailures: 0,
          nextCheckAt: eb.case().when('status', '=', 'pending').then(at).else(eb.ref('nextCheckAt')).end(),
        }))
        .where('id', '=', id)
        .execute();
    },

    /** What one check of a pending claim saw, and when to check it next. */
    async saveCheck(
      id: number,
      check: { at: Date; answer: ClaimAnswer; failures: number; nextCheckAt: Date | null; flag: string | null },
      tx: Executor = db,
    ) {
      await tx
        .updateTable('gameClaims')
        .set({
          checkedAt: check.at,
          answer: JSON.stringify(check.answer),
          checkFailures: check.failures,
          nextCheckAt: check.nextCheckAt,
          ...(check.flag ? { flag: check.flag, flaggedAt: check.at } : {}),
        })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .execute();
    },

    /** Marks a verified address's poll as not plausible, for admins. */
    async flagVerified(serverId: number, flag: string, at: Date, tx: Executor = db) {
      await tx
        .updateTable('gameClaims')
        .set({ flag, flaggedAt: at })
        .where('serverId', '=', serverId)
        .where('status', '=', 'verified')
        .execute();
    },

    async markVerified(id: number, ip: string, at: Date, tx: Executor = db) {
      await tx
        .updateTable('gameClaims')
        .set({ status: 'verified', verifiedAt: at, ip, nextCheckAt: null, checkFailures: 0 })
        .where('id', '=', id)
        .execute();
    },

    /** Other listings' verified claims of the same address (same game and port, and the same IP or host). */
    sameAddressVerified: (
      claim: { id: number; game: string; port: number; hostKey: string },
      ip: string,
      tx: Executor = db,
      lock = true,
    ) => {
      const query = tx
        .selectFrom('gameClaims')
        .selectAll()
        .where('status', '=', 'verified')
        .where('game', '=', claim.game)
        .where('port', '=', claim.port)
        .where((eb) => eb.or([eb('ip', '=', ip), eb('hostKey', '=', claim.hostKey)]))
        .where('id', '<>', claim.id);
      return (lock ? query.forUpdate() : query).execute();
    },

    /**
     * Claims up to `limit` pending claims due by `dueBy` (of listings not hidden) by moving their
     * next check to `claimUntil` in the statement that selects them, so two instances never check one.
     */
    async claimDue(limit: number, claimUntil: Date, dueBy: Date, tx: Executor = db): Promise<ClaimRow[]> {
      const ids = await sql<{ id: number }>`
        UPDATE game_claims SET next_check_at = ${claimUntil}
        WHERE id IN (
          SELECT c.id FROM game_claims c JOIN servers s ON s.id = c.server_id
          WHERE c.status = 'pending' AND c.next_check_at <= ${dueBy} AND NOT s.hidden
          ORDER BY c.next_check_at LIMIT ${limit} FOR UPDATE OF c SKIP LOCKED)
        RETURNING id`.execute(tx);
      if (ids.rows.length === 0) return [];
      return tx
        .selectFrom('gameClaims')
        .selectAll()
        .where(
          'id',
          'in',
          ids.rows.map((r) => Number(r.id)),
        )
        .execute();
    },

    /** Who owns a listing and what it is called, to tell them. */
    owner: (serverId: number, tx: Executor = db) =>
      tx
        .selectFrom('servers')
        .innerJoin('users', 'users.id', 'servers.ownerId')
        .select([
          'servers.id',
          'servers.name',
          'servers.ownerId',
          'users.username',
          'users.email',
          'users.emailConfirmedAt',
          'users.locale',
        ])
        .where('servers.id', '=', serverId)
        .executeTakeFirst(),

    /** An inbox notice. */
    async notify(userId: number, notice: { title: string; message: string; link: string }, tx: Executor = db) {
      await tx
        .insertInto('notifications')
        .values({ userId, ...notice })
        .execute();
    },

    /** A page of claims for admins, newest first: all, or by status, or those with a flagged count. */
    adminPage(filter: 'all' | 'pending' | 'verified' | 'ended' | 'flagged', limit: number, offset: number): Promise<AdminClaimRow[]> {
      let query = db
        .selectFrom('gameClaims')
        .innerJoin('servers', 'servers.id', 'gameClaims.serverId')
        .innerJoin('users', 'users.id', 'servers.ownerId')
        .selectAll('gameClaims')
        .select(['servers.name as serverName', 'servers.ownerId', 'users.username as ownerUsername']);
      if (filter === 'flagged') query = query.where('gameClaims.flag', 'is not', null).orderBy('gameClaims.flaggedAt', 'desc');
      else if (filter !== 'all') query = query.where('gameClaims.status', '=', filter);
      return query.orderBy('gameClaims.id', 'desc').limit(limit).offset(offset).execute();
    },

    /** How many claims the admins' filter holds. */
    async adminCount(filter: 'all' | 'pending' | 'verified' | 'ended' | 'flagged'): Promise<number> {
      let query = db.selectFrom('gameClaims').select((eb) => eb.fn.countAll<number>().as('n'));
      if (filter === 'flagged') query = query.where('flag', 'is not', null);
      else if (filter !== 'all') query = query.where('status', '=', filter);
      return Number((await query.executeTakeFirstOrThrow()).n);
    },
  };
}

export type GameClaimsRepository = ReturnType<typeof gameClaimsRepository>;
