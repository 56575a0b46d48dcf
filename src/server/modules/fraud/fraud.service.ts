import { serverT } from '../../i18n/translate';
import type { UserRow } from '../../db/schema';
import type { InTransaction } from '../../db/transaction';
import type { FraudActionBody, FraudActionResult, FraudEvidenceRow, FraudSuspect } from '../../../shared/schemas/fraud';
import { parseId, toApiId } from '../../lib/ids';
import { monthOf, monthRange, type CountedVote } from '../daily-votes';
import { adminPolicy } from '../../policies/admin.policy';
import type { FraudRepository, SuspectRow } from './fraud.repository';

/** The window the review looks at, and what it takes to be listed. */
export const FRAUD_WINDOW_MS = 24 * 3600_000;
const MIN_ROWS = 3;
const MIN_SCORE = 20;
const EVIDENCE_LIMIT = 500;

/**
 * How unlike a crowd of real players a server's last day looks, 0–100: the share of its votes and
 * joins from accounts under a day old, from its busiest network, and from registration bursts,
 * plus held rows; damped for servers with few rows (three look alike by chance).
 */
export function fraudScore(row: Pick<SuspectRow, 'rows' | 'young' | 'held' | 'burstAccounts' | 'topNetworkRows'>): number {
  const share = (n: number) => Math.min(1, n / row.rows);
  const raw = 0.3 * share(row.young) + 0.3 * share(row.topNetworkRows) + 0.25 * share(row.burstAccounts) + 0.15 * share(row.held);
  const confidence = Math.min(1, row.rows / 10);
  return Math.round(100 * raw * confidence);
}

interface Deps {
  repository: FraudRepository;
  inTransaction: InTransaction;
  now: () => Date;
  /** Counters of several servers changed: cached lists, pages and the search index must follow. */
  onChange: () => void;
  /** After the transaction: released daily votes, for their rewards. */
  onDailyVotesReleased?: (votes: CountedVote[]) => void;
}

/** The admins' fraud review: who looks botted, the evidence, and voiding or releasing votes with a trace. */
export function fraudService({ repository, inTransaction, now, onChange, onDailyVotesReleased }: Deps) {
  const ids = (list: string[]) => list.map((id) => parseId(id)).filter((id): id is number => id !== undefined);

  return {
    /** Servers whose last 24 hours look made, highest score first. */
    async suspects(actor: UserRow): Promise<FraudSuspect[]> {
      adminPolicy.assertIsAdmin(actor);
      const rows = await repository.suspects(new Date(now().getTime() - FRAUD_WINDOW_MS), MIN_ROWS);
      return rows
        .map((row) => ({ row, score: fraudScore(row) }))
        .filter(({ score }) => score >= MIN_SCORE)
        .sort((a, b) => b.score - a.score || b.row.rows - a.row.rows)
        .slice(0, 50)
        .map(({ row, score }) => ({
          server: { id: toApiId(row.serverId), name: row.name },
          score,
          rows: row.rows,
          held: row.held,
          youngShare: row.young / row.rows,
          topNetwork: row.topNetwork ? { network: row.topNetwork, rows: row.topNetworkRows } : null,
          burstAccounts: row.burstAccounts,
        }));
    },

    /** A server's votes and joins of the window, with their accounts and networks. */
    async evidence(actor: UserRow, serverId: number): Promise<FraudEvidenceRow[]> {
      adminPolicy.assertIsAdmin(actor);
      const rows = await repository.evidence(serverId, new Date(now().getTime() - FRAUD_WINDOW_MS), EVIDENCE_LIMIT);
      return rows.map((r) => ({
        kind: r.kind,
        id: toApiId(Number(r.id)),
        type: r.type,
        account: {
          id: toApiId(Number(r.userId)),
          username: r.username,
          registeredAt: r.registeredAt.toISOString(),
          registeredNetwork: r.registeredNetwork,
          confirmed: r.emailConfirmedAt !== null,
        },
        network: r.network,
        status: r.status,
        createdAt: r.createdAt.toISOString(),
      }));
    },

    /**
     * Voids (or releases) votes and joins, or all of some accounts', recounts the servers they were
     * on in the same transaction, records the action and tells each server's owner. A row already
     * in the target state is left alone, so repeating an action changes nothing.
     */
    async act(actor: UserRow, body: FraudActionBody): Promise<FraudActionResult> {
      adminPolicy.assertIsAdmin(actor);
      const target = {
        voteIds: ids(body.voteIds),
        joinIds: ids(body.joinIds),
        dailyVoteIds: ids(body.dailyVoteIds),
        accountIds: ids(body.accountIds),
      };
      const at = now();
      const { from, to } =
        body.action === 'void'
          ? { from: ['counted', 'held'] as const, to: 'voided' as const }
          : { from: ['held'] as const, to: 'counted' as const };
      const moved = await inTransaction(async (tx) => {
        const changed = await repository.setStatus(target, [...from], to, at, tx);
        const serverIds = [...new Set([...changed.votes, ...changed.joins, ...changed.dailyVotes].map((r) => Number(r.serverId)))].sort(
          (a, b) => a - b,
        );
        await repository.recount(serverIds, tx);
        await repository.recountMonth(
          [...new Set(changed.dailyVotes.map((r) => Number(r.serverId)))],
          { name: monthOf(at), ...monthRange(monthOf(at)) },
          tx,
        );
        if (serverIds.length > 0) {
          await repository.insertAction(
            {
              adminId: actor.id,
              action: body.action,
              reason: body.reason,
              voteIds: changed.votes.map((r) => Number(r.id)),
              joinIds: changed.joins.map((r) => Number(r.id)),
              dailyVoteIds: changed.dailyVotes.map((r) => Number(r.id)),
              serverIds,
            },
            tx,
          );
          for (const server of await repository.owners(serverIds, tx)) {
            const votes = changed.votes.filter((r) => Number(r.serverId) === server.id).length;
            const joins = changed.joins.filter((r) => Number(r.serverId) === server.id).length;
            const daily = changed.dailyVotes.filter((r) => Number(r.serverId) === server.id).length;
            const t = serverT(server.locale);
            const what = body.action === 'void' ? 'votesVoided' : 'votesReleased';
            await repository.notify(
              server.ownerId,
              {
                title: t(`notice.${what}.title`, { server: server.name }),
                message: t(`notice.${what}.message`, { votes, joins, daily }),
                link: '/stats',
              },
              tx,
            );
          }
        }
        const released =
          body.action === 'release'
            ? await repository.releasedDailyVotes(
                changed.dailyVotes.map((r) => Number(r.id)),
                tx,
              )
            : [];
        return { ...changed, serverIds, released };
      });
      if (moved.serverIds.length > 0) onChange();
      if (moved.released.length > 0)
        onDailyVotesReleased?.(
          moved.released.map((v) => ({
            voteId: Number(v.id),
            serverId: Number(v.serverId),
            userId: Number(v.userId),
            username: v.username,
            playerName: v.playerName,
            // The vote's own address is not kept: its network's first address stands for it.
            address: v.network?.split('/')[0] ?? '0.0.0.0',
            at: v.createdAt,
          })),
        );
      return {
        votes: moved.votes.length,
        joins: moved.joins.length,
        dailyVotes: moved.dailyVotes.length,
        servers: moved.serverIds.map(toApiId),
      };
    },
  };
}

/** The fraud review, as routes receive it. */
export type FraudService = ReturnType<typeof fraudService>;
