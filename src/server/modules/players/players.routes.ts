import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema, idParams } from '../../../shared/schemas/common';
import { playerProfileSchema } from '../../../shared/schemas/server';
import { MSG } from '../../../shared/messages';
import { requireUser } from '../../plugins/auth';
import { readMultipart } from '../../plugins/multipart';
import { uploadLimit } from '../servers';
import type { PlayersService } from './players.service';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 413: errorSchema, 429: errorSchema };

/** `GET /api/players/{id}` and `PUT /api/players/{id}` (multipart: displayName, profilePic). */
export const playersRoutes =
  ({ players }: { players: PlayersService }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get('/players/:id', {
      config: { signedIn: true },
      schema: { tags: ['players'], params: idParams(MSG.playerNotFound), response: { 200: playerProfileSchema, ...errors } },
      handler: async (request) => players.get(await requireUser(request), request.params.id),
    });

    r.put('/players/:id', {
      config: { signedIn: true },
      schema: {
        tags: ['players'],
        params: idParams(MSG.playerNotFound),
        consumes: ['multipart/form-data'],
        response: { 200: playerProfileSchema, ...errors },
      },
      preHandler: uploadLimit(app),
      handler: async (request) => {
        const actor = await requireUser(request);
        const body = await readMultipart(request, ['profilePic', 'profilePicture']);
        const picture = body.files.find((f) => f.field === 'profilePic' || f.field === 'profilePicture');
        return players.update(actor, request.params.id, body.fields, picture?.data);
      },
    });
  };
