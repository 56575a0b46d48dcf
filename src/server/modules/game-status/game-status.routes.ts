import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema, idParamsSchema } from '../../../shared/schemas/common';
import { gameAddressBodySchema, gameStatusSchema, historyQuerySchema, historySchema } from '../../../shared/schemas/game-status';
import { GAMES } from '../../../shared/games';
import { requireUser } from '../../plugins/auth';
import { uploadLimit } from '../servers/limits';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 429: errorSchema };

/** Live status from the game: the owner sets the address, everyone reads the history. */
export async function gameStatusRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { gameStatus } = app.ctx;

  r.get('/games', {
    schema: { tags: ['status'], response: { 200: z.array(z.object({ id: z.string(), label: z.string(), port: z.number() })) } },
    handler: async () => GAMES.map((g) => ({ id: g.id, label: g.label, port: g.port })),
  });

  r.get('/servers/:id/game', {
    schema: { tags: ['status'], params: idParamsSchema, response: { 200: gameStatusSchema, ...errors } },
    handler: async (request) => gameStatus.statusFor(await requireUser(request), request.params.id),
  });

  r.put('/servers/:id/game', {
    schema: { tags: ['status'], params: idParamsSchema, body: gameAddressBodySchema, response: { 200: gameStatusSchema, ...errors } },
    // Each change queries a game server at once: limited like uploads.
    preHandler: uploadLimit(app),
    handler: async (request) => gameStatus.setAddress(await requireUser(request), request.params.id, request.body),
  });

  r.delete('/servers/:id/game', {
    schema: { tags: ['status'], params: idParamsSchema, response: { 204: z.null(), ...errors } },
    handler: async (request, reply) => {
      await gameStatus.clearAddress(await requireUser(request), request.params.id);
      return reply.code(204).send(null);
    },
  });

  r.get('/servers/:id/history', {
    schema: { tags: ['status'], params: idParamsSchema, querystring: historyQuerySchema, response: { 200: historySchema, ...errors } },
    handler: async (request) => gameStatus.history(request.params.id, request.query.range),
  });
}
