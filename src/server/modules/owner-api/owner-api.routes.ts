import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema, idParams, messageSchema } from '../../../shared/schemas/common';
import {
  apiKeyBodySchema,
  apiKeyCreatedSchema,
  apiKeyListSchema,
  v1CheckQuerySchema,
  v1CheckSchema,
  v1ServerSchema,
  v1VotesQuerySchema,
  v1VotesSchema,
} from '../../../shared/schemas/owner-api';
import { MSG } from '../../../shared/messages';
import { tooMany } from '../../errors';
import { ownerFirst } from '../../plugins/owner-first';
import { requireUser } from '../../plugins/auth';
import type { OwnerApiService } from './owner-api.service';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 429: errorSchema };
const keyParams = z.object({
  id: idParams(MSG.serverNotFound).shape.id,
  keyId: z.coerce.number({ error: 'API key not found' }).int().positive('API key not found'),
});

/** Requests one key may make per window (per key, whatever the address). */
export interface OwnerApiLimit {
  max: number;
  windowMs: number;
}

/** The owner's API keys (session), and the `/api/v1` read API the keys open. */
export const ownerApiRoutes =
  ({ ownerApi, ownerApiLimit }: { ownerApi: OwnerApiService; ownerApiLimit: OwnerApiLimit }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get('/servers/:id/api-keys', {
      config: { signedIn: true },
      schema: { tags: ['owner-api'], params: idParams(MSG.serverNotFound), response: { 200: apiKeyListSchema, ...errors } },
      handler: async (request) => ownerApi.listKeys(await requireUser(request), request.params.id),
    });

    r.post('/servers/:id/api-keys', {
      config: { signedIn: true },
      onRequest: ownerFirst(ownerApi.assertOwner),
      schema: {
        tags: ['owner-api'],
        params: idParams(MSG.serverNotFound),
        body: apiKeyBodySchema,
        response: { 201: apiKeyCreatedSchema, ...errors },
      },
      handler: async (request, reply) =>
        reply.code(201).send(await ownerApi.createKey(await requireUser(request), request.params.id, request.body.name)),
    });

    r.delete('/servers/:id/api-keys/:keyId', {
      config: { signedIn: true },
      schema: { tags: ['owner-api'], params: keyParams, response: { 200: messageSchema, ...errors } },
      handler: async (request) => {
        await ownerApi.revokeKey(await requireUser(request), request.params.id, request.params.keyId);
        return { message: 'API key revoked.' };
      },
    });

    // Counted per key (its prefix), in Redis when REDIS_URL is set.
    const perKey = app.createRateLimit({
      max: ownerApiLimit.max,
      timeWindow: ownerApiLimit.windowMs,
      keyGenerator: (request) => `owner-api:${String(request.headers.authorization ?? '').slice(0, 40)}`,
    });
    const checkKey = async (request: FastifyRequest): Promise<number> => {
      const serverId = await ownerApi.authenticate(request.headers.authorization);
      const limit = await perKey(request);
      if (!limit.isAllowed && limit.isExceeded) throw tooMany(Math.max(1, limit.ttlInSeconds));
      return serverId;
    };
    const keyServers = new WeakMap<FastifyRequest, Promise<number>>();
    /** The key's server, after the key is checked and its rate limit counted: once per request. */
    const keyServer = (request: FastifyRequest): Promise<number> => {
      let server = keyServers.get(request);
      if (!server) {
        server = checkKey(request);
        keyServers.set(request, server);
      }
      return server;
    };
    /** The key is checked before the request is read: without one, nothing is learnt of the query's rules. */
    const keyFirst = async (request: FastifyRequest): Promise<void> => {
      await keyServer(request);
    };

    r.get('/v1/server', {
      onRequest: keyFirst,
      schema: { tags: ['owner-api'], description: 'The API key’s server, live.', response: { 200: v1ServerSchema, ...errors } },
      handler: async (request) => ownerApi.server(await keyServer(request)),
    });

    r.get('/v1/votes', {
      onRequest: keyFirst,
      schema: {
        tags: ['owner-api'],
        description: 'Counted daily votes, oldest first; page with `after` (the last id you saw).',
        querystring: v1VotesQuerySchema,
        response: { 200: v1VotesSchema, ...errors },
      },
      handler: async (request) => ownerApi.votes(await keyServer(request), request.query),
    });

    r.get('/v1/votes/check', {
      onRequest: keyFirst,
      schema: {
        tags: ['owner-api'],
        description: 'Whether a player (in-game name or site username) voted in the last 24 hours.',
        querystring: v1CheckQuerySchema,
        response: { 200: v1CheckSchema, ...errors },
      },
      handler: async (request) => ownerApi.check(await keyServer(request), request.query.player),
    });
  };
