import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/schema';
import type { Storage } from '../../adapters/storage';
import { MSG } from '../../../shared/messages';
import { displayNameSchema, type PlayerProfile, type ServerSummary } from '../../../shared/schemas/server';
import { badRequest, forbidden, notFound } from '../../errors';
import { parseId, toApiId } from '../../lib/ids';
import { prepareImages, removeStored, withStoredImages } from '../servers/media';

interface Deps {
  db: Kysely<Database>;
  storage: Storage;
}

const PROFILE_LIST = 50;

/** Player profiles (spec §7 `/players/{id}`): readable and editable by that user only (decisions §4). */
export function playersService({ db, storage }: Deps) {
  const self = (actor: UserRow, rawId: string) => {
    const id = parseId(rawId);
    if (!id) throw notFound(MSG.playerNotFound);
    if (id !== actor.id && actor.role !== 'admin') throw forbidden();
    return id;
  };

  const summaries = (rows: Array<{ id: number; name: string; profilePicture: string | null }>): ServerSummary[] =>
    rows.map((r) => ({ id: toApiId(r.id), name: r.name, profilePicture: r.profilePicture }));

  const profile = async (id: number): Promise<PlayerProfile> => {
    const user = await db
      .selectFrom('users')
      .select(['id', 'username', 'displayName', 'profilePicture'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!user) throw notFound(MSG.playerNotFound);
    const [joined, votes, boosts, boosted] = await Promise.all([
      db
        .selectFrom('joins')
        .innerJoin('servers', 'servers.id', 'joins.serverId')
        .select(['servers.id', 'servers.name', 'servers.profilePicture'])
        .where('joins.userId', '=', id)
        .where('servers.hidden', '=', false)
        .orderBy('joins.createdAt', 'desc')
        .limit(PROFILE_LIST)
        .execute(),
      db
        .selectFrom('votes')
        .select(['type', (eb) => eb.fn.countAll<number>().as('n')])
        .where('userId', '=', id)
        .groupBy('type')
        .execute(),
      db
        .selectFrom('boosts')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('n'))
        .where('userId', '=', id)
        .where('source', '=', 'player')
        .where('revokedAt', 'is', null)
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('boosts')
        .innerJoin('servers', 'servers.id', 'boosts.serverId')
        .select(['servers.id', 'servers.name', 'servers.profilePicture', (eb) => eb.fn.max('boosts.createdAt').as('last')])
        .where('boosts.userId', '=', id)
        .where('boosts.source', '=', 'player')
        .where('boosts.revokedAt', 'is', null)
        .groupBy(['servers.id', 'servers.name', 'servers.profilePicture'])
        .orderBy('last', 'desc')
        .limit(PROFILE_LIST)
        .execute(),
    ]);
    const count = (type: 'like' | 'dislike') => Number(votes.find((v) => v.type === type)?.n ?? 0);
    return {
      id: toApiId(user.id),
      username: user.username,
      displayName: user.displayName || user.username,
      profilePic: user.profilePicture,
      profilePicture: user.profilePicture,
      joinedServers: summaries(joined),
      likesGiven: count('like'),
      dislikesGiven: count('dislike'),
      boostsGiven: Number(boosts.n),
      boostedServers: summaries(boosted),
    };
  };

  return {
    get: (actor: UserRow, rawId: string) => profile(self(actor, rawId)),

    /** Display name and picture; the old picture file goes once the new one is committed. */
    async update(actor: UserRow, rawId: string, fields: Record<string, string>, picture: Buffer | undefined): Promise<PlayerProfile> {
      const id = self(actor, rawId);
      let displayName: string | undefined;
      if (fields.displayName !== undefined) {
        const parsed = displayNameSchema.safeParse(fields.displayName);
        if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? MSG.displayNameTooLong);
        displayName = parsed.data;
      }
      const images = picture ? await prepareImages([{ kind: 'avatar', data: picture }]) : [];
      const old = await withStoredImages(storage, images, () =>
        db.transaction().execute(async (trx) => {
          const previous = images.length
            ? await trx.deleteFrom('media').where('userId', '=', id).where('kind', '=', 'avatar').returning('storageKey').execute()
            : [];
          for (const image of images) {
            await trx
              .insertInto('media')
              .values({
                userId: id,
                kind: 'avatar',
                storageKey: image.key,
                width: image.width,
                height: image.height,
                bytes: image.data.length,
              })
              .execute();
          }
          await trx
            .updateTable('users')
            .set({
              ...(displayName !== undefined ? { displayName } : {}),
              ...(images[0] ? { profilePicture: storage.url(images[0].key) } : {}),
              updatedAt: new Date(),
            })
            .where('id', '=', id)
            .execute();
          return previous.map((p) => p.storageKey);
        }),
      );
      await removeStored(storage, old);
      return profile(id);
    },
  };
}

export type PlayersService = ReturnType<typeof playersService>;
