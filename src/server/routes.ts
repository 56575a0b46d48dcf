import type { FastifyInstance } from 'fastify';
import { healthRoutes } from './modules/health/health.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { playerCountRoutes } from './modules/player-count/player-count.routes';
import { ownerServersRoutes } from './modules/servers/owner-servers.routes';

/** Every API route, mounted under `/api` (decisions §1). */
export async function apiRoutes(app: FastifyInstance): Promise<void> {
  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(playerCountRoutes);
  await app.register(ownerServersRoutes);
}
