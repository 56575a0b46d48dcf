import { sql, type Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/schema';
import type { Storage } from '../../adapters/storage';
import type { ImageKind } from '../../adapters/images';
import { LIMITS, PRICES } from '../../../shared/limits';
import { normalizePlan } from '../../../shared/roles';
import type { FulfilmentService } from '../payments/fulfilment.service';
import { MSG } from '../../../shared/messages';
import { customizeFieldsSchema, type CreateServerBody } from '../../../shared/schemas/server';
import { badRequest, notFound } from '../../errors';
import { parseId } from '../../lib/ids';
import type { FilterCatalog } from '../filters/filters.catalog';
import { serverPolicy } from './servers.policy';
import { serversRepository, toApiServer } from './servers.repository';
import { prepareImages, removeStored, withStoredImages } from './media';

interface Deps {
  db: Kysely<Database>;
  storage: Storage;
  filters: FilterCatalog;
  now: () => Date;
  onServersChanged: () => void;
  fulfilment: Pick<FulfilmentService, 'creditBoosts'>;
}

/** Files of a change, by the form field they came in. */
export interface ServerUploads {
  profilePicture?: Buffer;
  banner?: Buffer;
  galleryImages?: Buffer[];
}

/** Owner tools: create, customise, images (issue 3 "Owners"). */
export function serversService({ db, storage, filters, now, onServersChanged, fulfilment }: Deps) {
  const servers = serversRepository(db);

  const full = async (id: number) => {
    const row = await servers.findFull(id, now());
    if (!row) throw notFound(MSG.serverNotFound);
    return toApiServer(row, storage.url);
  };

  const ownedServer = async (actor: UserRow, rawId: string | undefined) => {
    if (!rawId) throw badRequest(MSG.serverMissing);
    const id = parseId(rawId);
    const server = id ? await servers.findById(id) : undefined;
    if (!server) throw notFound(MSG.serverNotFound);
    serverPolicy.assertCanManage(actor, server);
    return server;
  };

  /** Parses the text fields of a customisation; `filters` arrives as a JSON array of names. */
  const parseFields = (raw: Record<string, string>) => {
    let filtersValue: unknown;
    if (raw.filters !== undefined) {
      try {
        filtersValue = JSON.parse(raw.filters);
      } catch {
        throw badRequest('Filters must be a JSON array of filter names');
      }
      if (!Array.isArray(filtersValue)) throw badRequest('Filters must be a JSON array of filter names');
    }
    const parsed = customizeFieldsSchema.safeParse({ ...raw, filters: filtersValue });
    if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid input');
    return parsed.data;
  };

  /**
   * Applies text changes and images in one transaction. The server row is locked, so two
   * uploads at once cannot push a gallery past 10. Replaced files are deleted after commit.
   */
  const apply = async (actor: UserRow, rawId: string | undefined, raw: Record<string, string>, uploads: ServerUploads) => {
    const server = await ownedServer(actor, rawId);
    serverPolicy.assertCanSave(actor);
    const fields = parseFields(raw);
    const filterIds = fields.filters ? filters.resolve(fields.filters).map((f) => f.id) : undefined;
    const incoming: Array<{ kind: ImageKind; data: Buffer }> = [
      ...(uploads.profilePicture ? [{ kind: 'profile' as const, data: uploads.profilePicture }] : []),
      ...(uploads.banner ? [{ kind: 'banner' as const, data: uploads.banner }] : []),
      ...(uploads.galleryImages ?? []).map((data) => ({ kind: 'gallery' as const, data })),
    ];
    if ((uploads.galleryImages?.length ?? 0) > LIMITS.galleryImages) throw badRequest(MSG.galleryFull);
    const images = await prepareImages(incoming);

    const replaced = await withStoredImages(storage, images, () =>
      db.transaction().execute(async (trx) => {
        await sql`SELECT id FROM servers WHERE id = ${server.id} FOR UPDATE`.execute(trx);
        const media = await trx
          .selectFrom('media')
          .select(['id', 'kind', 'storageKey', 'position'])
          .where('serverId', '=', server.id)
          .execute();
        const gallery = media.filter((m) => m.kind === 'gallery');
        const newGallery = images.filter((i) => i.kind === 'gallery');
        if (gallery.length + newGallery.length > LIMITS.galleryImages) throw badRequest(MSG.galleryFull);

        const oldKeys: string[] = [];
        const update: Record<string, unknown> = {};
        for (const image of images) {
          await trx
            .insertInto('media')
            .values({
              serverId: server.id,
              kind: image.kind === 'gallery' ? 'gallery' : image.kind === 'banner' ? 'banner' : 'profile',
              storageKey: image.key,
              width: image.width,
              height: image.height,
              bytes: image.data.length,
              position: image.kind === 'gallery' ? Math.max(-1, ...gallery.map((g) => g.position)) + 1 + newGallery.indexOf(image) : 0,
            })
            .execute();
          if (image.kind === 'profile' || image.kind === 'banner') {
            const previous = media.filter((m) => m.kind === image.kind);
            oldKeys.push(...previous.map((m) => m.storageKey));
            if (previous.length)
              await trx
                .deleteFrom('media')
                .where(
                  'id',
                  'in',
                  previous.map((m) => m.id),
                )
                .execute();
            update[image.kind === 'profile' ? 'profilePicture' : 'banner'] = storage.url(image.key);
          }
        }
        const { filters: _filters, discordLink, ...text } = fields;
        Object.assign(update, text);
        if (discordLink !== undefined) update.discordLink = discordLink === '' ? null : discordLink;
        await trx
          .updateTable('servers')
          .set({ ...update, updatedAt: now() })
          .where('id', '=', server.id)
          .execute();
        if (filterIds) {
          await trx.deleteFrom('serverFilters').where('serverId', '=', server.id).execute();
          if (filterIds.length)
            await trx
              .insertInto('serverFilters')
              .values(filterIds.map((filterId) => ({ serverId: server.id, filterId })))
              .execute();
        }
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
      const id = await db.transaction().execute(async (trx) => {
        await sql`SELECT id FROM users WHERE id = ${actor.id} FOR UPDATE`.execute(trx);
        serverPolicy.assertCanCreate(actor, await servers.countByOwner(actor.id, trx));
        const row = await trx
          .insertInto('servers')
          .values({
            ownerId: actor.id,
            name: body.name,
            statusMessage: body.statusMessage,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        // Premium: every new server starts with 100 boost credits (spec §9).
        if (normalizePlan(actor.subscriptionPlan) === 'Premium') {
          await fulfilment.creditBoosts(trx, {
            serverId: row.id,
            userId: actor.id,
            paymentId: null,
            amount: PRICES.premiumNewServerBoostCredits,
            source: 'premium_credit',
          });
        }
        return row.id;
      });
      onServersChanged();
      return full(id);
    },

    customize: (actor: UserRow, rawId: string | undefined, fields: Record<string, string>, uploads: ServerUploads) =>
      apply(actor, rawId, fields, uploads),

    upload: (actor: UserRow, rawId: string | undefined, uploads: ServerUploads) => apply(actor, rawId, {}, uploads),

    /** Removes one gallery image by its URL; the file goes once the row is gone. */
    async removeGalleryImage(actor: UserRow, rawId: string | undefined, url: string) {
      const server = await ownedServer(actor, rawId);
      serverPolicy.assertCanSave(actor);
      const key = url.replace(/^\/uploads\//, '');
      const removed = await db
        .deleteFrom('media')
        .where('serverId', '=', server.id)
        .where('kind', '=', 'gallery')
        .where('storageKey', '=', key)
        .returning('storageKey')
        .executeTakeFirst();
      if (!removed) throw notFound('Image not found');
      await removeStored(storage, [removed.storageKey]);
      return full(server.id);
    },

    full,
  };
}

export type ServersService = ReturnType<typeof serversService>;
