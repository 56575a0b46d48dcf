import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema, idParamsSchema } from '../../../shared/schemas/common';
import {
  adminUserSchema,
  adminUsersQuerySchema,
  analyticsSchema,
  popularFilterSchema,
  revenueSchema,
  togglesSchema,
  togglesUpdateSchema,
} from '../../../shared/schemas/admin';
import { requireUser } from '../../plugins/auth';
import { adminService } from './admin.service';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };

/** Everything under /api/admin: 401 without a token, 403 for anyone but an admin (issue 6). */
export async function adminRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = adminService({
    db: app.ctx.db,
    storage: app.ctx.storage,
    now: app.ctx.now,
    onChange: () => app.ctx.discovery.invalidate(),
  });
  // One guard for the whole prefix, before any handler runs.
  app.addHook('preHandler', async (request) => {
    request.adminUser = await requireUser(request, 'admin');
  });

  r.get('/admin/users', {
    schema: { tags: ['admin'], querystring: adminUsersQuerySchema, response: { 200: z.array(adminUserSchema), ...errors } },
    handler: async (request, reply) => {
      const { rows, total } = await admin.users(request.query);
      return reply.header('x-total-count', String(total)).send(rows);
    },
  });

  r.get('/admin/analytics', {
    schema: { tags: ['admin'], response: { 200: analyticsSchema, ...errors } },
    handler: () => admin.analytics(),
  });
  r.get('/admin/revenue', { schema: { tags: ['admin'], response: { 200: revenueSchema, ...errors } }, handler: () => admin.revenue() });
  r.get('/admin/popular-filters', {
    schema: { tags: ['admin'], response: { 200: z.array(popularFilterSchema), ...errors } },
    handler: () => admin.popularFilters(),
  });

  r.delete('/admin/users/:id', {
    schema: { tags: ['admin'], params: idParamsSchema, response: { 204: z.null(), ...errors } },
    handler: async (request, reply) => {
      await admin.deleteUser(request.adminUser!, request.params.id);
      return reply.code(204).send(null);
    },
  });

  r.delete('/admin/servers/:id', {
    schema: { tags: ['admin'], params: idParamsSchema, response: { 204: z.null(), ...errors } },
    handler: async (request, reply) => {
      await admin.deleteServer(request.params.id);
      return reply.code(204).send(null);
    },
  });

  r.get('/admin/settings', {
    schema: { tags: ['admin'], response: { 200: togglesSchema, ...errors } },
    handler: () => app.ctx.settings.all(),
  });
  r.put('/admin/settings', {
    schema: { tags: ['admin'], body: togglesUpdateSchema, response: { 200: togglesSchema, ...errors } },
    handler: async (request) => app.ctx.settings.update(request.body),
  });
}
