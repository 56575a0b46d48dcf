import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';

/** What a server page shows besides the server: its reviews, the weekend's booking, the caller's state. */
export function discoveryRepository(db: Kysely<Database>) {
  return {
    /** A page of a server's shown votes with their authors, newest first. */
    /**
     * A page of a server's reviews: counted, shown votes with a text (a vote without one only
     * counts), those of players who joined the server first (a "joined" badge), then the rest,
     * newest first within each. Held and voided votes are not shown.
     */
    reviewsPage(serverId: number, limit: number, offset: number, tx: Executor = db) {
      return tx
        .selectFrom('votes')
        .innerJoin('users', 'users.id', 'votes.userId')
        .select([
          'votes.type',
          'votes.review',
          'votes.createdAt',
          'votes.editedAt',
          'users.username',
          'users.displayName',
          'users.profilePicture',
        ])
        .select((eb) =>
          eb
            .exists(
              eb
                .selectFrom('joins')
                .select('joins.id')
                .whereRef('joins.userId', '=', 'votes.userId')
                .where('joins.serverId', '=', serverId)
                .where('joins.status', '=', 'counted'),
            )
            .as('joined'),
        )
        .where('votes.serverId', '=', serverId)
        .where('votes.hidden', '=', false)
        .where('votes.status', '=', 'counted')
        .where('votes.review', 'is not', null)
        .orderBy('joined', 'desc')
        .orderBy('votes.createdAt', 'desc')
        .orderBy('votes.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
    },

    /** How many reviews (shown, counted votes with a text) a server has. */
    async countReviews(serverId: number, tx: Executor = db): Promise<number> {
      return (
        await tx
          .selectFrom('votes')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('serverId', '=', serverId)
          .where('hidden', '=', false)
          .where('status', '=', 'counted')
          .where('review', 'is not', null)
          .executeTakeFirstOrThrow()
      ).n;
    },

    /** The server with the active booking of the weekend starting at `weekendStart`, or undefined. */
    async findWeekendServerId(weekendStart: string, tx: Executor = db): Promise<number | undefined> {
      const booking = await tx
        .selectFrom('weekendBookings')
        .select('serverId')
        .where('weekendStart', '=', weekendStart)
        .where('status', '=', 'active')
        .executeTakeFirst();
      return booking?.serverId;
    },

    /** Whether the user joined the server and how they voted, in one query. */
    findViewerState(serverId: number, userId: number, tx: Executor = db) {
      return tx
        .selectNoFrom((eb) => [
          eb.exists(eb.selectFrom('joins').select('id').where('serverId', '=', serverId).where('userId', '=', userId)).as('joined'),
          eb.selectFrom('votes').select('type').where('serverId', '=', serverId).where('userId', '=', userId).as('vote'),
          eb.selectFrom('votes').select('review').where('serverId', '=', serverId).where('userId', '=', userId).as('review'),
        ])
        .executeTakeFirstOrThrow();
    },
  };
}

/** The server page's extra reads, as the discovery service receives them. */
export type DiscoveryRepository = ReturnType<typeof discoveryRepository>;
