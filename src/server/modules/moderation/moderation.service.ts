import type { UserRow } from '../../db/schema';
import type { InTransaction } from '../../db/transaction';
import type { Report } from '../../../shared/schemas/admin';
import { MSG } from '../../../shared/messages';
import { notFound } from '../../errors';
import { parseId, toApiId } from '../../lib/ids';
import { moderationPolicy } from '../../policies/moderation.policy';
import type { ModerationRepository } from './moderation.repository';

interface Deps {
  repository: ModerationRepository;
  inTransaction: InTransaction;
  onChange: () => void;
}

/**
 * Reports and the admins' queue: hiding a server takes it out of lists, search and the live
 * count; hiding a review takes it off the page and its review total.
 */
export function moderationService({ repository, inTransaction, onChange }: Deps) {
  return {
    /** Files a report about a server, or about one user's review on it. */
    async report(reporter: UserRow, body: { serverId: string; reviewUsername?: string | undefined; reason: string }): Promise<void> {
      const serverId = parseId(body.serverId);
      const server = serverId ? await repository.findServer(serverId) : undefined;
      if (!server) throw notFound(MSG.serverNotFound);
      let voteId: number | null = null;
      if (body.reviewUsername) {
        const vote = await repository.findReview(server.id, body.reviewUsername);
        if (!vote) throw notFound(MSG.reviewNotFound);
        voteId = vote.id;
      }
      await repository.insertReport({ reporterId: reporter.id, serverId: server.id, voteId, reason: body.reason });
    },

    /** Up to 100 reports of one status, oldest first. */
    async queue(actor: UserRow, status: 'open' | 'actioned' | 'dismissed'): Promise<Report[]> {
      moderationPolicy.assertCanModerate(actor);
      const rows = await repository.listReports(status);
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

    /** Hides what an open report is about (its review, else its server), or dismisses it. */
    async resolve(actor: UserRow, id: number, action: 'hide' | 'dismiss'): Promise<void> {
      moderationPolicy.assertCanModerate(actor);
      const done = await inTransaction(async (tx) => {
        const report = await repository.lockOpenReport(id, tx);
        if (!report) return false;
        if (action === 'hide') {
          if (report.voteId) await repository.hideVote(report.voteId, tx);
          else await repository.hideServer(report.serverId, tx);
        }
        await repository.closeReport(report.id, action === 'hide' ? 'actioned' : 'dismissed', tx);
        return true;
      });
      if (!done) throw notFound(MSG.reportNotFound);
      onChange();
    },
  };
}

/** Reporting and the moderation queue. */
export type ModerationService = ReturnType<typeof moderationService>;
