import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';

/** What a report is about and who made it. */
export interface NewReport {
  reporterId: number;
  serverId: number;
  voteId: number | null;
  reason: string;
}

/** Reports, the queue, and hiding what a report was about. */
export function moderationRepository(db: Kysely<Database>) {
  return {
    /** The server's id when it exists, listed or hidden. */
    findServer(id: number, tx: Executor = db) {
      return tx.selectFrom('servers').select('id').where('id', '=', id).executeTakeFirst();
    },

    /** The vote (review) a user left on a server, by the user's name. */
    findReview(serverId: number, username: string, tx: Executor = db) {
      return tx
        .selectFrom('votes')
        .innerJoin('users', 'users.id', 'votes.userId')
        .select('votes.id')
        .where('votes.serverId', '=', serverId)
        .where('users.username', '=', username)
        .executeTakeFirst();
    },

    /** Files a report as open. */
    async insertReport(report: NewReport, tx: Executor = db): Promise<void> {
      await tx.insertInto('reports').values(report).execute();
    },

    /** Up to 100 reports of one status, oldest first, with their server, review and reporter. */
    listReports(status: 'open' | 'actioned' | 'dismissed', tx: Executor = db) {
      return tx
        .selectFrom('reports')
        .innerJoin('servers', 'servers.id', 'reports.serverId')
        .leftJoin('votes', 'votes.id', 'reports.voteId')
        .leftJoin('users as author', 'author.id', 'votes.userId')
        .leftJoin('users as reporter', 'reporter.id', 'reports.reporterId')
        .select([
          'reports.id',
          'reports.reason',
          'reports.status',
          'reports.createdAt',
          'servers.id as serverId',
          'servers.name as serverName',
          'servers.hidden as serverHidden',
          'votes.type as voteType',
          'votes.review',
          'votes.hidden as voteHidden',
          'author.username as author',
          'reporter.username as reporter',
        ])
        .where('reports.status', '=', status)
        .orderBy('reports.createdAt', 'asc')
        .limit(100)
        .execute();
    },

    /** An open report, locked until the transaction ends, so two admins cannot resolve it twice. */
    lockOpenReport(id: number, tx: Executor = db) {
      return tx
        .selectFrom('reports')
        .select(['id', 'serverId', 'voteId'])
        .where('id', '=', id)
        .where('status', '=', 'open')
        .forUpdate()
        .executeTakeFirst();
    },

    /** Takes a review off its server's page. */
    async hideVote(voteId: number, tx: Executor = db): Promise<void> {
      await tx.updateTable('votes').set({ hidden: true }).where('id', '=', voteId).execute();
    },

    /** Takes a server out of lists, search and the live count. */
    async hideServer(serverId: number, tx: Executor = db): Promise<void> {
      await tx.updateTable('servers').set({ hidden: true, updatedAt: new Date() }).where('id', '=', serverId).execute();
    },

    /** Marks a report resolved. */
    async closeReport(id: number, status: 'actioned' | 'dismissed', tx: Executor = db): Promise<void> {
      await tx.updateTable('reports').set({ status, resolvedAt: new Date() }).where('id', '=', id).execute();
    },
  };
}

/** The moderation queries. */
export type ModerationRepository = ReturnType<typeof moderationRepository>;
