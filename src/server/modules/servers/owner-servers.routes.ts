import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { serverListSchema } from '../../../shared/schemas/server';
import { errorSchema } from '../../../shared/schemas/common';
import { requireUser } from '../../plugins/auth';
import type { ServersService } from './servers.service';

/**
 * `GET /api/user/servers`: the caller's own servers (owners; `[]` for others). The web app uses
 * it to send an owner to their dashboard after login and to pick a server there.
 */
export const ownerServersRoutes =
  ({ servers }: { servers: ServersService }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    app.withTypeProvider<ZodTypeProvider>().get('/user/servers', {
      config: { signedIn: true },
      schema: { tags: ['servers'], response: { 200: serverListSchema, 401: errorSchema } },
      handler: async (request) => servers.listOwn(await requireUser(request)),
    });
  };
