import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema, idParams, messageSchema } from '../../../shared/schemas/common';
import {
  rewardSettingsSchema,
  rewardTestSchema,
  votifierBodySchema,
  webhookBodySchema,
  webhookSavedSchema,
} from '../../../shared/schemas/vote-rewards';
import { MSG } from '../../../shared/messages';
import { parseId, toApiId } from '../../lib/ids';
import { requireUser } from '../../plugins/auth';
import { voteLimit } from '../servers';
import type { VoteRewardsService } from './vote-rewards.service';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 429: errorSchema };
const params = idParams(MSG.serverNotFound);

/** The owner's vote-reward settings: webhook, Votifier, test, and the delivery log. */
export const voteRewardsRoutes =
  ({ voteRewards }: { voteRewards: VoteRewardsService }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    // Someone else's server answers 403 (or 404) before the body is read: what a body gets wrong,
    // or where its address points, is no answer for someone who may not set it at all. An id that
    // cannot be one is left to the params' 404.
    const ownerFirst = async (request: FastifyRequest) => {
      const id = parseId((request.params as { id?: string }).id);
      if (id !== undefined) await voteRewards.assertOwner(await requireUser(request), id);
    };

    r.get('/servers/:id/rewards', {
      config: { signedIn: true },
      schema: { tags: ['rewards'], params, response: { 200: rewardSettingsSchema, ...errors } },
      handler: async (request) => voteRewards.settings(await requireUser(request), request.params.id),
    });

    r.put('/servers/:id/rewards/webhook', {
      config: { signedIn: true },
      onRequest: ownerFirst,
      schema: { tags: ['rewards'], params, body: webhookBodySchema, response: { 200: webhookSavedSchema, ...errors } },
      handler: async (request) => voteRewards.saveWebhook(await requireUser(request), request.params.id, request.body),
    });

    r.delete('/servers/:id/rewards/webhook', {
      config: { signedIn: true },
      schema: { tags: ['rewards'], params, response: { 200: messageSchema, ...errors } },
      handler: async (request) => {
        await voteRewards.removeWebhook(await requireUser(request), request.params.id);
        return { message: 'Webhook removed.' };
      },
    });

    r.put('/servers/:id/rewards/votifier', {
      config: { signedIn: true },
      onRequest: ownerFirst,
      schema: { tags: ['rewards'], params, body: votifierBodySchema, response: { 200: messageSchema, ...errors } },
      handler: async (request) => {
        await voteRewards.saveVotifier(await requireUser(request), request.params.id, request.body);
        return { message: 'Votifier saved.' };
      },
    });

    r.delete('/servers/:id/rewards/votifier', {
      config: { signedIn: true },
      schema: { tags: ['rewards'], params, response: { 200: messageSchema, ...errors } },
      handler: async (request) => {
        await voteRewards.removeVotifier(await requireUser(request), request.params.id);
        return { message: 'Votifier removed.' };
      },
    });

    r.post('/servers/:id/rewards/test', {
      config: { signedIn: true },
      schema: { tags: ['rewards'], params, response: { 200: rewardTestSchema, ...errors } },
      // Each test opens connections to the owner's address: limited like votes.
      preHandler: voteLimit(app),
      handler: async (request) => ({
        deliveries: (await voteRewards.test(await requireUser(request), request.params.id)).map(toApiId),
      }),
    });
  };
