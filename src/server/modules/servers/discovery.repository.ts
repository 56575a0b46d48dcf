import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';

/** A vote shown as a review: counted, not hidden, with a text (what `votes_reviews_idx` holds). */
const isShownReview = (eb: ExpressionBuilder<{ v: Database['votes'] }, 'v'>) =>
  eb.and([eb('v.hidden', '=', false), eb('v.status', '=', 'counted'), eb('v.review', 'is not', null)]);

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
      // Each kind newest first from its own index, cut at the page's depth, then merged: the first
      // `offset + limit` of the merge lie within the first that many of each. Ordering every review
      // by "joined" first read and sorted all of a popular server's reviews (5,500 on the
      // benchmark's biggest: ~100 ms) for a page of ten. The arms read only the index (ids, times,
      // authors); the page's rows are read last.
      const depth = offset + limit;
      const joinedArm = tx
        .selectFrom('joins as j')
        .innerJoin('votes as v', (join) => join.onRef('v.userId', '=', 'j.userId').onRef('v.serverId', '=', 'j.serverId'))
        .where('j.serverId', '=', serverId)
        .where('j.status', '=', 'counted')
        .where(isShownReview)
        .select(['v.id', 'v.createdAt', sql<boolean>`true`.as('joined')])
        .orderBy('v.createdAt', 'desc')
        .orderBy('v.id', 'desc')
        .limit(depth);
      const restArm = tx
        .selectFrom('votes as v')
        .where('v.serverId', '=', serverId)
        .where(isShownReview)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('joins as j')
                .select('j.id')
                .whereRef('j.userId', '=', 'v.userId')
                .where('j.serverId', '=', serverId)
                .where('j.status', '=', 'counted'),
            ),
          ),
        )
        .select(['v.id', 'v.createdAt', sql<boolean>`false`.as('joined')])
        .orderBy('v.createdAt', 'desc')
        .orderBy('v.id', 'desc')
        .limit(depth);
      return tx
        .selectFrom((eb) =>
          eb
            .selectFrom(joinedArm.as('a'))
            .selectAll()
            .unionAll(eb.selectFrom(restArm.as('b')).selectAll())
            .as('r'),
        )
        .innerJoin('votes as v', 'v.id', 'r.id')
        .innerJoin('users as u', 'u.id', 'v.userId')
        .select(['v.type', 'v.review', 'v.createdAt', 'v.editedAt', 'r.joined', 'u.username', 'u.displayName', 'u.profilePicture'])
        .orderBy('r.joined', 'desc')
        .orderBy('r.createdAt', 'desc')
        .orderBy('r.id', 'desc')
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
