import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/schema';
import type { Report } from '../../../shared/schemas/admin';
import { MSG } from '../../../shared/messages';
import { notFound } from '../../errors';
import { parseId, toApiId } from '../../lib/ids';

/**
 * Reports and the admins' queue (issue 6, beyond the spec): hiding a server takes it out of
 * lists, search and the live count; hiding a review takes it off the page and its review total.
 */
export function moderationService({ db, onChange }: { db: Kysely<Database>; onChange: () => void }) {
  return {
    async report(reporter: UserRow, body: { serverId: string; reviewUsername?: string | undefined; reason: string }): Promise<void> {
      const serverId = parseId(body.serverId);
      const server = serverId ? await db.selectFrom('servers').select('id').where('id', '=', serverId).executeTakeFirst() : undefined;
      if (!server) throw notFound(MSG.serverNotFound);
      let voteId: number | null = null;
      if (body.reviewUsername) {
        const vote = await db
          .selectFrom('votes')
          .innerJoin('users', 'users.id', 'votes.userId')
          .select('votes.id')
          .where('votes.serverId', '=', server.id)
          .where('users.username', '=', body.reviewUsername)
          .executeTakeFirst();
        if (!vote) throw notFound('Review not found');
        voteId = vote.id;
      }
      await db.insertInto('reports').values({ reporterId: reporter.id, serverId: server.id, voteId, reason: body.reason }).execute();
    },

    async queue(status: 'open' | 'actioned' | 'dismissed'): Promise<Report[]> {
      const rows = await db
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
      return rows.map((r) => ({
        id: toApiId(r.id),
        server: { id: toApiId(r.serverId), name: r.serverName, hidden: r.serverHidden },
        review: r.voteType && r.author ? { username: r.author, type: r.voteType, review: r.review, hidden: Boolean(r.voteHidden) } : null,
        reason: r.reason,
        reporter: r.reporter,
        status: r.status,
        createdAt: r.createdAt.toISOString(),
      }));
    },

    async resolve(rawId: string, action: 'hide' | 'dismiss'): Promise<void> {
      const id = parseId(rawId);
      const done = await db.transaction().execute(async (trx) => {
        const report = id
          ? await trx
              .selectFrom('reports')
              .select(['id', 'serverId', 'voteId'])
              .where('id', '=', id)
              .where('status', '=', 'open')
              .forUpdate()
              .executeTakeFirst()
          : undefined;
        if (!report) return false;
        if (action === 'hide') {
          if (report.voteId) await trx.updateTable('votes').set({ hidden: true }).where('id', '=', report.voteId).execute();
          else await trx.updateTable('servers').set({ hidden: true, updatedAt: new Date() }).where('id', '=', report.serverId).execute();
        }
        await trx
          .updateTable('reports')
          .set({ status: action === 'hide' ? 'actioned' : 'dismissed', resolvedAt: new Date() })
          .where('id', '=', report.id)
          .execute();
        return true;
      });
      if (!done) throw notFound(MSG.reportNotFound);
      onChange();
    },
  };
}

export type ModerationService = ReturnType<typeof moderationService>;
