import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';

/** The one query behind the live player count. */
export function playerCountRepository(db: Kysely<Database>) {
  return {
    /** Players on every listed (not hidden) server, 0 when there are none. */
    async totalPlayers(tx: Executor = db): Promise<number> {
      const row = await tx
        .selectFrom('servers')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('currentPlayers'), eb.lit(0)).as('total'))
        .where('hidden', '=', false)
        .executeTakeFirstOrThrow();
      return Number(row.total);
    },
  };
}

export type PlayerCountRepository = ReturnType<typeof playerCountRepository>;
