import type { Kysely } from 'kysely';
import { PLAYERS_KEY } from '../../db/players-key';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';

/** The one query behind the live player count. */
export function playerCountRepository(db: Kysely<Database>) {
  return {
    /**
     * Players on every listed (not hidden) server the game poller reached, 0 when there are none: a
     * server never polled has no count. Only servers with players are read: a range of the players
     * index (its key is -1 for a server never polled), not every server
     * (docs/decisions/022-search-at-scale.md).
     */
    async totalPlayers(tx: Executor = db): Promise<number> {
      const row = await tx
        .selectFrom('servers')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('currentPlayers'), eb.lit(0)).as('total'))
        .where('hidden', '=', false)
        .where(PLAYERS_KEY, '>', 0)
        .executeTakeFirstOrThrow();
      return Number(row.total);
    },
  };
}

export type PlayerCountRepository = ReturnType<typeof playerCountRepository>;
