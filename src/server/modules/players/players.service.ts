import type { UserRow } from '../../db/schema';
import type { InTransaction } from '../../db/transaction';
import type { Storage } from '../../adapters/storage';
import { MSG } from '../../../shared/messages';
import { displayNameSchema, type PlayerProfile, type ServerSummary } from '../../../shared/schemas/server';
import { badRequest, notFound } from '../../errors';
import { toApiId } from '../../lib/ids';
import { playersPolicy } from '../../policies/players.policy';
import { prepareImages, removeStored, withStoredImages } from '../servers';
import type { PlayersRepository, ServerSummaryRow } from './players.repository';

interface Deps {
  repo: PlayersRepository;
  inTransaction: InTransaction;
  storage: Storage;
}

const PROFILE_LIST = 50;

const summaries = (rows: ServerSummaryRow[]): ServerSummary[] =>
  rows.map((r) => ({ id: toApiId(r.id), name: r.name, profilePicture: r.profilePicture }));

/** Player profiles (`/api/players/{id}`): what a user joined, voted and boosted, read and edited by that user or an admin. */
export function playersService({ repo, inTransaction, storage }: Deps) {
  const profile = async (id: number): Promise<PlayerProfile> => {
    const user = await repo.findUser(id);
    if (!user) throw notFound(MSG.playerNotFound);
    const [joined, votes, boosts, boosted] = await Promise.all([
      repo.joinedServers(id, PROFILE_LIST),
      repo.votesGiven(id),
      repo.boostsGiven(id),
      repo.boostedServers(id, PROFILE_LIST),
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
      boostsGiven: boosts,
      boostedServers: summaries(boosted),
    };
  };

  return {
    /** A profile, for its own user or an admin. */
    async get(actor: UserRow, id: number): Promise<PlayerProfile> {
      playersPolicy.assertCanView(actor, id);
      return profile(id);
    },

    /** Display name and picture; the old picture file goes once the new one is committed. */
    async update(actor: UserRow, id: number, fields: Record<string, string>, picture: Buffer | undefined): Promise<PlayerProfile> {
      playersPolicy.assertCanEdit(actor, id);
      let displayName: string | undefined;
      if (fields.displayName !== undefined) {
        const parsed = displayNameSchema.safeParse(fields.displayName);
        if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? MSG.displayNameTooLong);
        displayName = parsed.data;
      }
      const images = picture ? await prepareImages([{ kind: 'avatar', data: picture }]) : [];
      const old = await withStoredImages(storage, images, () =>
        inTransaction(async (tx) => {
          const previous = images.length ? await repo.removeAvatars(id, tx) : [];
          for (const image of images) {
            await repo.addAvatar(id, { storageKey: image.key, width: image.width, height: image.height, bytes: image.data.length }, tx);
          }
          await repo.updateProfile(
            id,
            {
              ...(displayName !== undefined ? { displayName } : {}),
              ...(images[0] ? { profilePicture: storage.url(images[0].key) } : {}),
            },
            tx,
          );
          return previous;
        }),
      );
      await removeStored(storage, old);
      return profile(id);
    },
  };
}

export type PlayersService = ReturnType<typeof playersService>;
