import type { UserRow } from '../../db/schema';
import type { InTransaction } from '../../db/transaction';
import type { Storage } from '../../adapters/storage';
import type { ImageKind } from '../../adapters/images';
import { LIMITS, PRICES } from '../../../shared/limits';
import { normalizePlan } from '../../../shared/roles';
import { MSG } from '../../../shared/messages';
import type { CreateServerBody } from '../../../shared/schemas/server';
import { badRequest, notFound } from '../../errors';
import type { FilterCatalog } from '../filters';
import { serverPolicy } from '../../policies/servers.policy';
import type { ServersRepository } from './servers.repository';
import type { ServerChanges, ServerWritesRepository } from './server-writes.repository';
import { toApiServer } from './servers.mapper';
import { parseCustomizeFields } from './customize-fields';
import { prepareImages, removeStored, withStoredImages } from './media';

interface Deps {
  servers: ServersRepository;
  writes: ServerWritesRepository;
  inTransaction: InTransaction;
  storage: Storage;
  filters: FilterCatalog;
  now: () => Date;
  onServersChanged: () => void;
}

/** Files of a change, by the form field they came in. */
export interface ServerUploads {
  profilePicture?: Buffer;
  banner?: Buffer;
  galleryImages?: Buffer[];
}

/** Owner tools: create a server, customise it, add and remove its images. */
export function serversService({ servers, writes, inTransaction, storage, filters, now, onServersChanged }: Deps) {
  const full = async (id: number) => {
    const row = await servers.findFull(id, now());
    if (!row) throw notFound(MSG.serverNotFound);
    return toApiServer(row, storage.url);
  };

  const ownedServer = async (actor: UserRow, id: number) => {
    const server = await servers.findById(id);
    if (!server) throw notFound(MSG.serverNotFound);
    serverPolicy.assertCanManage(actor, server);
    return server;
  };

  /**
   * Applies text changes and images in one transaction. The server row is locked, so two
   * uploads at once cannot push a gallery past 10. Replaced files are deleted after commit.
   */
  const apply = async (actor: UserRow, id: number, raw: Record<string, string>, uploads: ServerUploads) => {
    const server = await ownedServer(actor, id);
    serverPolicy.assertCanSave(actor);
    const fields = parseCustomizeFields(raw);
    const filterIds = fields.filters ? filters.resolve(fields.filters).map((f) => f.id) : undefined;
    const incoming: Array<{ kind: ImageKind; data: Buffer }> = [
      ...(uploads.profilePicture ? [{ kind: 'profile' as const, data: uploads.profilePicture }] : []),
      ...(uploads.banner ? [{ kind: 'banner' as const, data: uploads.banner }] : []),
      ...(uploads.galleryImages ?? []).map((data) => ({ kind: 'gallery' as const, data })),
    ];
    if ((uploads.galleryImages?.length ?? 0) > LIMITS.galleryImages) throw badRequest(MSG.galleryFull);
    const images = await prepareImages(incoming);

    const replaced = await withStoredImages(storage, images, () =>
      inTransaction(async (tx) => {
        await writes.lockServer(server.id, tx);
        const media = await writes.listMedia(server.id, tx);
        const gallery = media.filter((m) => m.kind === 'gallery');
        const newGallery = images.filter((i) => i.kind === 'gallery');
        if (gallery.length + newGallery.length > LIMITS.galleryImages) throw badRequest(MSG.galleryFull);

        const oldKeys: string[] = [];
        const update: ServerChanges = {};
        for (const image of images) {
          await writes.insertMedia(
            {
              serverId: server.id,
              kind: image.kind === 'gallery' ? 'gallery' : image.kind === 'banner' ? 'banner' : 'profile',
              storageKey: image.key,
              width: image.width,
              height: image.height,
              bytes: image.data.length,
              position: image.kind === 'gallery' ? Math.max(-1, ...gallery.map((g) => g.position)) + 1 + newGallery.indexOf(image) : 0,
            },
            tx,
          );
          if (image.kind === 'profile' || image.kind === 'banner') {
            const previous = media.filter((m) => m.kind === image.kind);
            oldKeys.push(...previous.map((m) => m.storageKey));
            if (previous.length)
              await writes.deleteMedia(
                previous.map((m) => m.id),
                tx,
              );
            update[image.kind === 'profile' ? 'profilePicture' : 'banner'] = storage.url(image.key);
          }
        }
        const { filters: _filters, discordLink, ...text } = fields;
        Object.assign(update, text);
        if (discordLink !== undefined) update.discordLink = discordLink === '' ? null : discordLink;
        await writes.update(server.id, { ...update, updatedAt: now() }, tx);
        if (filterIds) await writes.replaceFilters(server.id, filterIds, tx);
        return oldKeys;
      }),
    );
    await removeStored(storage, replaced);
    onServersChanged();
    return full(server.id);
  };

  return {
    /** Creates a server; the owner row is locked so parallel creations cannot pass the cap of 3. */
    async create(actor: UserRow, body: CreateServerBody) {
      const id = await inTransaction(async (tx) => {
        await writes.lockOwner(actor.id, tx);
        serverPolicy.assertCanCreate(actor, await servers.countByOwner(actor.id, tx));
        // Premium: every new server starts with a balance of boost credits its owner spends before
        // paying (docs/decisions/034-boost-credit-balance.md).
        const premium = normalizePlan(actor.subscriptionPlan) === 'Premium';
        const boostCredits = premium ? PRICES.premiumNewServerBoostCredits : 0;
        return writes.insert({ ownerId: actor.id, name: body.name, statusMessage: body.statusMessage, boostCredits }, tx);
      });
      onServersChanged();
      return full(id);
    },

    /** Changes text fields, filters and images of the caller's own server (Pro or Premium). */
    customize: (actor: UserRow, id: number, fields: Record<string, string>, uploads: ServerUploads) => apply(actor, id, fields, uploads),

    /** Adds images to the caller's own server (Pro or Premium). */
    upload: (actor: UserRow, id: number, uploads: ServerUploads) => apply(actor, id, {}, uploads),

    /** Removes one gallery image by its URL; the file goes once the row is gone. */
    async removeGalleryImage(actor: UserRow, id: number, url: string) {
      const server = await ownedServer(actor, id);
      serverPolicy.assertCanSave(actor);
      const key = url.replace(/^\/uploads\//, '');
      const removed = await writes.deleteGalleryImage(server.id, key);
      if (!removed) throw notFound('Image not found');
      await removeStored(storage, [removed]);
      // Its public page and cards show the gallery: they must not keep naming a file that is gone.
      onServersChanged();
      return full(server.id);
    },

    /**
     * 404 unless the server exists, 403 unless the caller may manage it: the upload guard asks
     * before it reads a byte of the body.
     */
    async assertCanManage(actor: UserRow, id: number): Promise<void> {
      await ownedServer(actor, id);
    },

    /** The caller's own servers, oldest first; anyone but an owner has none. */
    async listOwn(actor: UserRow) {
      if (!serverPolicy.canOwnServers(actor)) return [];
      const rows = await servers.listByOwner(actor.id, now());
      return rows.map((row) => toApiServer(row, storage.url));
    },

    /** One server as the API shows it, or 404. */
    full,
  };
}

/** The owner tools, as routes and the upload guard receive them. */
export type ServersService = ReturnType<typeof serversService>;
