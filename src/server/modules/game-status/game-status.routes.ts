import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema, idParams } from '../../../shared/schemas/common';
import {
  adminClaimsQuerySchema,
  adminClaimsSchema,
  gameAddressBodySchema,
  gameClearedSchema,
  gameListSchema,
  gameStatusSchema,
  historyQuerySchema,
  historySchema,
} from '../../../shared/schemas/game-status';
import { MSG } from '../../../shared/messages';
import { CLAIM_MSG } from '../../../shared/claims';
import { requireUser } from '../../plugins/auth';
import { sendCached } from '../../lib/cached-body';
import { ownerFirst } from '../../plugins/owner-first';
import { uploadLimit } from '../servers';
import type { GameStatusService } from './game-status.service';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 429: errorSchema };
const params = idParams(MSG.serverNotFound);
const claimParams = idParams(CLAIM_MSG.claimNotFound);

/** Live status from the game: the owner sets the address, everyone reads the history. */
export const gameStatusRoutes =
  ({ gameStatus }: { gameStatus: GameStatusService }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get('/games', {
      schema: { tags: ['status'], response: { 200: gameListSchema } },
      handler: async () => gameStatus.games(),
    });

    r.get('/servers/:id/game', {
      config: { signedIn: true },
      schema: { tags: ['status'], params, response: { 200: gameStatusSchema, ...errors } },
      handler: async (request) => gameStatus.statusFor(await requireUser(request), request.params.id),
    });

    r.put('/servers/:id/game', {
      config: { signedIn: true },
      onRequest: ownerFirst(gameStatus.assertOwner),
      schema: { tags: ['status'], params, body: gameAddressBodySchema, response: { 200: gameStatusSchema, ...errors } },
      // Each change queries a game server at once: limited like uploads.
      preHandler: uploadLimit(app),
      handler: async (request) => gameStatus.setAddress(await requireUser(request), request.params.id, request.body),
    });

    r.post('/servers/:id/game/check', {
      config: { signedIn: true },
      onRequest: ownerFirst(gameStatus.assertOwner),
      schema: { tags: ['status'], params, response: { 200: gameStatusSchema, ...errors } },
      // Asks a game server at once, like setting the address: limited the same way.
      preHandler: uploadLimit(app),
      handler: async (request) => gameStatus.checkNow(await requireUser(request), request.params.id),
    });

    r.get('/admin/game-claims', {
      schema: { tags: ['admin'], querystring: adminClaimsQuerySchema, response: { 200: adminClaimsSchema, ...errors } },
      handler: async (request) => gameStatus.adminClaims(await requireUser(request, 'admin'), request.query),
    });

    r.post('/admin/game-claims/:id/revoke', {
      schema: { tags: ['admin'], params: claimParams, response: { 204: gameClearedSchema, ...errors, 409: errorSchema } },
      handler: async (request, reply) => {
        await gameStatus.revokeClaim(await requireUser(request, 'admin'), request.params.id);
        return reply.code(204).send(null);
      },
    });

    r.delete('/servers/:id/game', {
      config: { signedIn: true },
      onRequest: ownerFirst(gameStatus.assertOwner),
      schema: { tags: ['status'], params, response: { 204: gameClearedSchema, ...errors } },
      // Each removal drops every cached list and page: limited like the other changes of the address.
      preHandler: uploadLimit(app),
      handler: async (request, reply) => {
        await gameStatus.clearAddress(await requireUser(request), request.params.id);
        return reply.code(204).send(null);
      },
    });

    // Answered as bytes made once per sample (held while they are current), with an ETag.
    r.get('/servers/:id/history', {
      schema: { tags: ['status'], params, querystring: historyQuerySchema, response: { 200: historySchema, ...errors } },
      handler: async (request, reply) => sendCached(request, reply, await gameStatus.historyBody(request.params.id, request.query.range)),
    });
  };
