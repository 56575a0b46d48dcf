import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema, idParams } from '../../../shared/schemas/common';
import {
  adminUsersQuerySchema,
  adminUsersSchema,
  analyticsSchema,
  deletedSchema,
  popularFiltersSchema,
  revenueSchema,
  togglesSchema,
  togglesUpdateSchema,
} from '../../../shared/schemas/admin';
import { MSG } from '../../../shared/messages';
import { requireUser } from '../../plugins/auth';
import type { AdminService } from './admin.service';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };

/** Everything under /api/admin: 401 without a token, 403 for anyone but an admin. */
export const adminRoutes =
  ({ admin }: { admin: AdminService }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get('/admin/users', {
      schema: { tags: ['admin'], querystring: adminUsersQuerySchema, response: { 200: adminUsersSchema, ...errors } },
      handler: async (request, reply) => {
        const { rows, total } = await admin.users(await requireUser(request, 'admin'), request.query);
        return reply.header('x-total-count', String(total)).send(rows);
      },
    });

    r.get('/admin/analytics', {
      schema: { tags: ['admin'], response: { 200: analyticsSchema, ...errors } },
      handler: async (request) => admin.analytics(await requireUser(request, 'admin')),
    });

    r.get('/admin/revenue', {
      schema: { tags: ['admin'], response: { 200: revenueSchema, ...errors } },
      handler: async (request) => admin.revenue(await requireUser(request, 'admin')),
    });

    r.get('/admin/popular-filters', {
      schema: { tags: ['admin'], response: { 200: popularFiltersSchema, ...errors } },
      handler: async (request) => admin.popularFilters(await requireUser(request, 'admin')),
    });

    r.delete('/admin/users/:id', {
      schema: { tags: ['admin'], params: idParams(MSG.userNotFound), response: { 204: deletedSchema, ...errors } },
      handler: async (request, reply) => {
        await admin.deleteUser(await requireUser(request, 'admin'), request.params.id);
        return reply.code(204).send(null);
      },
    });

    r.delete('/admin/servers/:id', {
      schema: { tags: ['admin'], params: idParams(MSG.serverNotFound), response: { 204: deletedSchema, ...errors } },
      handler: async (request, reply) => {
        await admin.deleteServer(await requireUser(request, 'admin'), request.params.id);
        return reply.code(204).send(null);
      },
    });

    r.get('/admin/settings', {
      schema: { tags: ['admin'], response: { 200: togglesSchema, ...errors } },
      handler: async (request) => admin.settings(await requireUser(request, 'admin')),
    });

    r.put('/admin/settings', {
      schema: { tags: ['admin'], body: togglesUpdateSchema, response: { 200: togglesSchema, ...errors } },
      handler: async (request) => admin.updateSettings(await requireUser(request, 'admin'), request.body),
    });
  };
