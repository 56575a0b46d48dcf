import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';

/** Owners' testimonials and the servers shown beside them. */
export function testimonialsRepository(db: Kysely<Database>) {
  return {
    /**
     * Up to 100 visible testimonials, newest first (of one owner when given), each with its
     * author and the id of the author's first listed server.
     */
    listVisible(ownerId?: number, tx: Executor = db) {
      let query = tx
        .selectFrom('testimonials')
        .innerJoin('users', 'users.id', 'testimonials.ownerId')
        .select(['testimonials.content', 'testimonials.createdAt', 'users.username', 'users.displayName'])
        .select((eb) => [
          eb
            .selectFrom('servers')
            .select('servers.id')
            .whereRef('servers.ownerId', '=', 'testimonials.ownerId')
            .where('servers.hidden', '=', false)
            .orderBy('servers.createdAt')
            .limit(1)
            .as('serverId'),
        ])
        .where('testimonials.hidden', '=', false)
        .orderBy('testimonials.createdAt', 'desc')
        .limit(100);
      if (ownerId !== undefined) query = query.where('testimonials.ownerId', '=', ownerId);
      return query.execute();
    },

    /** Name and picture of the given servers. */
    findServers(ids: number[], tx: Executor = db) {
      return tx.selectFrom('servers').select(['id', 'name', 'profilePicture']).where('id', 'in', ids).execute();
    },

    /** Stores an owner's testimonial; a second one of the same owner fails the unique key. */
    async insert(ownerId: number, content: string, tx: Executor = db): Promise<void> {
      await tx.insertInto('testimonials').values({ ownerId, content }).execute();
    },
  };
}

/** The testimonials queries. */
export type TestimonialsRepository = ReturnType<typeof testimonialsRepository>;
