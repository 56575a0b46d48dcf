import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Context } from './context';
import { callersFirst } from './plugins/auth';
import { healthRoutes } from './modules/health';
import { authRoutes } from './modules/auth';
import { discordRoutes } from './modules/discord';
import { playerCountRoutes } from './modules/player-count';
import { discoveryRoutes, ownerServersRoutes, serversRoutes, votesRoutes } from './modules/servers';
import { filtersRoutes } from './modules/filters';
import { playersRoutes } from './modules/players';
import { paymentsRoutes, webhookRoutes } from './modules/payments';
import { notificationsRoutes } from './modules/notifications';
import { statsRoutes } from './modules/stats';
import { adminRoutes } from './modules/admin';
import { testimonialsRoutes } from './modules/testimonials';
import { emailRoutes } from './modules/email';
import { moderationRoutes } from './modules/moderation';
import { gameStatusRoutes } from './modules/game-status';
import { dailyVotesRoutes } from './modules/daily-votes';
import { voteRewardsRoutes } from './modules/vote-rewards';
import { ownerApiRoutes } from './modules/owner-api';
import { followsRoutes } from './modules/follows';
import { fraudRoutes } from './modules/fraud';

/** Every API route, mounted under `/api`: one origin serves the web app, the API and the socket. */
export const apiRoutes =
  (ctx: Context): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    callersFirst(app, app.prefix);
    await app.register(healthRoutes(ctx));
    await app.register(authRoutes(ctx));
    await app.register(discordRoutes(ctx));
    await app.register(playerCountRoutes(ctx));
    await app.register(ownerServersRoutes(ctx));
    await app.register(serversRoutes(ctx));
    await app.register(discoveryRoutes(ctx));
    await app.register(votesRoutes(ctx));
    await app.register(filtersRoutes(ctx));
    await app.register(playersRoutes(ctx));
    await app.register(paymentsRoutes(ctx));
    await app.register(webhookRoutes(ctx));
    await app.register(notificationsRoutes(ctx));
    await app.register(statsRoutes(ctx));
    await app.register(testimonialsRoutes(ctx));
    await app.register(adminRoutes(ctx));
    await app.register(emailRoutes(ctx));
    await app.register(moderationRoutes(ctx));
    await app.register(gameStatusRoutes(ctx));
    await app.register(dailyVotesRoutes(ctx));
    await app.register(voteRewardsRoutes(ctx));
    await app.register(ownerApiRoutes(ctx));
    await app.register(followsRoutes(ctx));
    await app.register(fraudRoutes(ctx));
  };
