import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema, idParams } from '../../../shared/schemas/common';
import {
  followedServersSchema,
  followStateSchema,
  serverEventBodySchema,
  serverEventSchema,
  serverEventsSchema,
} from '../../../shared/schemas/follows';
import { MSG } from '../../../shared/messages';
import { currentUser, requireUser } from '../../plugins/auth';
import { ownerFirst } from '../../plugins/owner-first';
import { voteLimit } from '../servers';
import type { FollowsService } from './follows.service';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 429: errorSchema };
const params = idParams(MSG.serverNotFound);

/** Follow and unfollow, the caller's followed servers, and the events owners announce. */
export const followsRoutes =
  ({ follows }: { follows: FollowsService }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get('/servers/:id/follow', {
      schema: { tags: ['follows'], params, response: { 200: followStateSchema, ...errors } },
      handler: async (request) => follows.state(await currentUser(request), request.params.id),
    });
    r.post('/servers/:id/follow', {
      config: { signedIn: true },
      schema: { tags: ['follows'], params, response: { 200: followStateSchema, ...errors } },
      preHandler: voteLimit(app),
      handler: async (request) => follows.follow(await requireUser(request), request.params.id),
    });
    r.delete('/servers/:id/follow', {
      config: { signedIn: true },
      schema: { tags: ['follows'], params, response: { 200: followStateSchema, ...errors } },
      handler: async (request) => follows.unfollow(await requireUser(request), request.params.id),
    });

    r.get('/users/me/follows', {
      config: { signedIn: true },
      schema: { tags: ['follows'], response: { 200: followedServersSchema, ...errors } },
      handler: async (request) => follows.followed(await requireUser(request)),
    });

    r.get('/servers/:id/events', {
      schema: { tags: ['follows'], params, response: { 200: serverEventsSchema, ...errors } },
      handler: async (request) => follows.events(request.params.id),
    });
    r.post('/servers/:id/events', {
      config: { signedIn: true },
      onRequest: ownerFirst(follows.assertOwner),
      schema: { tags: ['follows'], params, body: serverEventBodySchema, response: { 201: serverEventSchema, ...errors } },
      handler: async (request, reply) =>
        reply.code(201).send(await follows.announce(await requireUser(request), request.params.id, request.body)),
    });
  };
