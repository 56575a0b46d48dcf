import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema, idParams } from '../../../shared/schemas/common';
import { createServerBodySchema, galleryImageQuerySchema, serverSchema } from '../../../shared/schemas/server';
import { MSG } from '../../../shared/messages';
import { badRequest, forbidden } from '../../errors';
import { serverPolicy } from '../../policies/servers.policy';
import { requireUser } from '../../plugins/auth';
import { readMultipart, type MultipartBody } from '../../plugins/multipart';
import { uploadLimit } from './limits';
import type { ServersService, ServerUploads } from './servers.service';

const errors = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
  413: errorSchema,
  415: errorSchema,
  429: errorSchema,
};
const IMAGE_FIELDS = ['profilePicture', 'banner', 'galleryImages'] as const;
const params = idParams(MSG.serverNotFound);

function uploadsOf(body: MultipartBody): ServerUploads {
  const one = (field: string) => body.files.filter((f) => f.field === field).at(-1)?.data;
  return {
    profilePicture: one('profilePicture'),
    banner: one('banner'),
    galleryImages: body.files.filter((f) => f.field === 'galleryImages').map((f) => f.data),
  };
}

/** Owner tools: create, customise, upload and remove images. */
export const serversRoutes =
  ({ servers }: { servers: ServersService }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.post('/servers', {
      config: { signedIn: true },
      // A player is told only owners create servers before the body is read: what it got wrong in
      // the body is no answer for someone who may not create at all.
      onRequest: async (request) => {
        if (!serverPolicy.canOwnServers(await requireUser(request))) throw forbidden(MSG.onlyOwnersCreate);
      },
      schema: { tags: ['servers'], body: createServerBodySchema, response: { 201: serverSchema, ...errors } },
      handler: async (request, reply) => reply.code(201).send(await servers.create(await requireUser(request), request.body)),
    });

    r.put('/servers/:id/customize', {
      config: { signedIn: true },
      schema: { tags: ['servers'], params, consumes: ['multipart/form-data'], response: { 200: serverSchema, ...errors } },
      preHandler: uploadLimit(app),
      handler: async (request) => {
        const actor = await requireUser(request);
        const body = await readMultipart(request, IMAGE_FIELDS);
        return servers.customize(actor, request.params.id, body.fields, uploadsOf(body));
      },
    });

    for (const [path, field] of [
      ['upload-profile', 'profilePicture'],
      ['upload-banner', 'banner'],
      ['upload-gallery', 'galleryImages'],
    ] as const) {
      r.post(`/servers/:id/${path}`, {
        config: { signedIn: true },
        schema: { tags: ['servers'], params, consumes: ['multipart/form-data'], response: { 200: serverSchema, ...errors } },
        preHandler: uploadLimit(app),
        handler: async (request) => {
          const actor = await requireUser(request);
          const body = await readMultipart(request, [field]);
          const uploads = uploadsOf(body);
          if (!uploads.profilePicture && !uploads.banner && !uploads.galleryImages?.length) throw badRequest(MSG.imageMissing);
          return servers.upload(actor, request.params.id, uploads);
        },
      });
    }

    r.delete('/servers/:id/gallery', {
      config: { signedIn: true },
      schema: {
        tags: ['servers'],
        params,
        querystring: galleryImageQuerySchema,
        response: { 200: serverSchema, ...errors },
      },
      handler: async (request) => servers.removeGalleryImage(await requireUser(request), request.params.id, request.query.url),
    });
  };
