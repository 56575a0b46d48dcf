import type { FastifyInstance } from 'fastify';
import { healthRoutes } from './modules/health/health.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { playerCountRoutes } from './modules/player-count/player-count.routes';
import { ownerServersRoutes } from './modules/servers/owner-servers.routes';
import { serversRoutes } from './modules/servers/servers.routes';
import { discoveryRoutes } from './modules/servers/discovery.routes';
import { votesRoutes } from './modules/servers/votes.routes';
import { filtersRoutes } from './modules/filters/filters.routes';
import { playersRoutes } from './modules/players/players.routes';
import { paymentsRoutes } from './modules/payments/payments.routes';
import { webhookRoutes } from './modules/payments/webhook.routes';
import { notificationsRoutes } from './modules/notifications/notifications.routes';
import { statsRoutes } from './modules/stats/stats.routes';
import { adminRoutes } from './modules/admin/admin.routes';
import { testimonialsRoutes } from './modules/testimonials/testimonials.routes';
import { emailRoutes } from './modules/email/email.routes';
import { moderationRoutes } from './modules/moderation/moderation.routes';
import { gameStatusRoutes } from './modules/game-status/game-status.routes';

/** Every API route, mounted under `/api` (decisions §1). */
export async function apiRoutes(app: FastifyInstance): Promise<void> {
  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(playerCountRoutes);
  await app.register(ownerServersRoutes);
  await app.register(serversRoutes);
  await app.register(discoveryRoutes);
  await app.register(votesRoutes);
  await app.register(filtersRoutes);
  await app.register(playersRoutes);
  await app.register(paymentsRoutes);
  await app.register(webhookRoutes);
  await app.register(notificationsRoutes);
  await app.register(statsRoutes);
  await app.register(testimonialsRoutes);
  await app.register(adminRoutes);
  await app.register(emailRoutes);
  await app.register(moderationRoutes);
  await app.register(gameStatusRoutes);
}
