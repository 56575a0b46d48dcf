import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { serverSchema } from '../../../shared/schemas/server';
import { errorSchema } from '../../../shared/schemas/common';
import { requireUser } from '../../plugins/auth';
import { serversRepository, toApiServer } from './servers.repository';

/**
 * `GET /api/user/servers`: the caller's own servers (owners; `[]` for others). The web app uses
 * it to route an owner after login (spec §4) and to pick a server on the dashboard.
 */
export async function ownerServersRoutes(app: FastifyInstance): Promise<void> {
  const servers = serversRepository(app.ctx.db);
  app.withTypeProvider<ZodTypeProvider>().get('/user/servers', {
    schema: { tags: ['servers'], response: { 200: z.array(serverSchema), 401: errorSchema } },
    handler: async (request) => {
      const user = await requireUser(request);
      if (user.role !== 'server_owner') return [];
      const rows = await servers.listByOwner(user.id, app.ctx.now());
      return rows.map((row) => toApiServer(row, app.ctx.storage.url));
    },
  });
}
