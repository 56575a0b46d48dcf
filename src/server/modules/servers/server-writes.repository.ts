import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import type { Database, MediaTable, ServersTable } from '../../db/schema';
import type { Executor } from '../../db/transaction';

/** Columns of a server that creating or customising it may set. */
export type ServerChanges = Updateable<ServersTable>;
/** A media row to add to a server (profile picture, banner or gallery image). */
export type NewServerMedia = Insertable<MediaTable>;

/**
 * Writes of the owner tools: creating a server, customising it and its images. Each takes the
 * transaction the service opened, so locks and writes commit together.
 */
export function serverWritesRepository(db: Kysely<Database>) {
  return {
    /** Locks the owner's row until commit: parallel creations by one owner run one after another. */
    async lockOwner(userId: number, tx: Executor = db): Promise<void> {
      await sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`.execute(tx);
    },

    /** Locks the server's row until commit: parallel changes of one server run one after another. */
    async lockServer(serverId: number, tx: Executor = db): Promise<void> {
      await sql`SELECT id FROM servers WHERE id = ${serverId} FOR UPDATE`.execute(tx);
    },

    /** Adds a server, with the boost credits it starts with; answers its id. */
    async insert(
      server: { ownerId: number; name: string; statusMessage: string; boostCredits: number },
      tx: Executor = db,
    ): Promise<number> {
      const row = await tx
        .insertInto('servers')
        .values({
          ownerId: server.ownerId,
          name: server.name,
          statusMessage: server.statusMessage,
          boostCredits: server.boostCredits,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** Sets the given columns of a server. */
    async update(serverId: number, changes: ServerChanges, tx: Executor = db): Promise<void> {
      await tx.updateTable('servers').set(changes).where('id', '=', serverId).execute();
    },

    /** Replaces a server's filters with these (none: the server has no filters). */
    async replaceFilters(serverId: number, filterIds: number[], tx: Executor = db): Promise<void> {
      await tx.deleteFrom('serverFilters').where('serverId', '=', serverId).execute();
      if (filterIds.length)
        await tx
          .insertInto('serverFilters')
          .values(filterIds.map((filterId) => ({ serverId, filterId })))
          .execute();
    },

    /** The images a server has now. */
    listMedia(serverId: number, tx: Executor = db) {
      return tx.selectFrom('media').select(['id', 'kind', 'storageKey', 'position']).where('serverId', '=', serverId).execute();
    },

    /** Adds one image row. */
    async insertMedia(media: NewServerMedia, tx: Executor = db): Promise<void> {
      await tx.insertInto('media').values(media).execute();
    },

    /** Removes image rows by id (their files are removed by the caller after commit). */
    async deleteMedia(ids: number[], tx: Executor = db): Promise<void> {
      await tx.deleteFrom('media').where('id', 'in', ids).execute();
    },

    /** Removes one gallery image of a server by its storage key; answers the key, or undefined if there was none. */
    async deleteGalleryImage(serverId: number, storageKey: string, tx: Executor = db): Promise<string | undefined> {
      const removed = await tx
        .deleteFrom('media')
        .where('serverId', '=', serverId)
        .where('kind', '=', 'gallery')
        .where('storageKey', '=', storageKey)
        .returning('storageKey')
        .executeTakeFirst();
      return removed?.storageKey;
    },
  };
}

/** The owner tools' writes, as the services receive them. */
export type ServerWritesRepository = ReturnType<typeof serverWritesRepository>;
