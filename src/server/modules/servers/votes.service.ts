import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/schema';
import { MSG } from '../../../shared/messages';
import { conflict, forbidden, notFound } from '../../errors';
import type { SettingsService } from '../settings/settings.service';
import { parseId } from '../../lib/ids';
import { serverPolicy } from './servers.policy';

interface Deps {
  db: Kysely<Database>;
  settings: Pick<SettingsService, 'flag'>;
  /** Told after a join or vote changed a counter (cached lists are dropped). */
  onChange: () => void;
}

/**
 * Joins and votes (issue 3 "Voting and joining"): one of each per user per server, decided by
 * the unique constraint inside the transaction that bumps the counter, so counters equal rows
 * under any concurrency.
 */
export function votesService({ db, settings, onChange }: Deps) {
  const target = async (rawId: string, actor: UserRow) => {
    const id = parseId(rawId);
    const server = id
      ? await db.selectFrom('servers').select(['id', 'ownerId', 'hidden']).where('id', '=', id).executeTakeFirst()
      : undefined;
    if (!server || server.hidden) throw notFound(MSG.serverNotFound);
    serverPolicy.assertNotOwnServer(actor, server);
    return server;
  };

  return {
    async join(actor: UserRow, rawId: string): Promise<number> {
      const server = await target(rawId, actor);
      const done = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('joins')
          .values({ userId: actor.id, serverId: server.id })
          .onConflict((oc) => oc.columns(['userId', 'serverId']).doNothing())
          .returning('id')
          .executeTakeFirst();
        if (row)
          await trx
            .updateTable('servers')
            .set((eb) => ({ totalJoins: eb('totalJoins', '+', 1) }))
            .where('id', '=', server.id)
            .execute();
        return Boolean(row);
      });
      if (!done) throw conflict(MSG.alreadyJoined);
      onChange();
      return server.id;
    },

    async vote(actor: UserRow, rawId: string, type: 'like' | 'dislike', review: string | undefined): Promise<number> {
      const server = await target(rawId, actor);
      if (review && !(await settings.flag('enableReviews'))) throw forbidden(MSG.reviewsDisabled);
      const existing = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('votes')
          .values({ userId: actor.id, serverId: server.id, type, review: review ? review : null })
          .onConflict((oc) => oc.columns(['userId', 'serverId']).doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!row) {
          const previous = await trx
            .selectFrom('votes')
            .select('type')
            .where('userId', '=', actor.id)
            .where('serverId', '=', server.id)
            .executeTakeFirst();
          return previous?.type ?? type;
        }
        const column = type === 'like' ? 'likes' : 'dislikes';
        await trx
          .updateTable('servers')
          .set((eb) => ({ [column]: eb(column, '+', 1) }))
          .where('id', '=', server.id)
          .execute();
        return undefined;
      });
      if (existing) throw conflict(existing === 'like' ? MSG.alreadyLiked : MSG.alreadyDisliked);
      onChange();
      return server.id;
    },
  };
}

export type VotesService = ReturnType<typeof votesService>;
