import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema } from '../../../shared/schemas/common';
import { testimonialBodySchema, testimonialSchema, type Testimonial } from '../../../shared/schemas/admin';
import { MSG } from '../../../shared/messages';
import { conflict, forbidden, isUniqueViolation } from '../../errors';
import { requireUser } from '../../plugins/auth';
import { toApiId } from '../../lib/ids';

/** Owner testimonials (spec §5): one each, 1 to 300 characters after trimming. */
export async function testimonialsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  const list = async (ownerId?: number): Promise<Testimonial[]> => {
    let query = db
      .selectFrom('testimonials')
      .innerJoin('users', 'users.id', 'testimonials.ownerId')
      .select(['testimonials.content', 'testimonials.createdAt', 'users.username', 'users.displayName'])
      .select((eb) => [
        eb
          .selectFrom('servers')
          .select('servers.id')
          .whereRef('servers.ownerId', '=', 'testimonials.ownerId')
          .where('servers.hidden', '=', false)
          .orderBy('servers.createdAt')
          .limit(1)
          .as('serverId'),
      ])
      .where('testimonials.hidden', '=', false)
      .orderBy('testimonials.createdAt', 'desc')
      .limit(100);
    if (ownerId !== undefined) query = query.where('testimonials.ownerId', '=', ownerId);
    const rows = await query.execute();
    const serverIds = rows.map((r) => r.serverId).filter((id): id is number => typeof id === 'number');
    const servers = serverIds.length
      ? await db.selectFrom('servers').select(['id', 'name', 'profilePicture']).where('id', 'in', serverIds).execute()
      : [];
    const byId = new Map(servers.map((s) => [s.id, s]));
    return rows.map((row) => {
      const server = row.serverId ? byId.get(row.serverId) : undefined;
      return {
        serverId: server ? toApiId(server.id) : null,
        serverName: server?.name ?? null,
        serverPicture: server?.profilePicture ?? null,
        testimonial: row.content,
        ownerName: row.displayName || row.username,
        createdAt: row.createdAt.toISOString(),
      };
    });
  };

  r.get('/testimonials', { schema: { tags: ['testimonials'], response: { 200: z.array(testimonialSchema) } }, handler: () => list() });

  r.post('/testimonials', {
    schema: {
      tags: ['testimonials'],
      body: testimonialBodySchema,
      response: { 201: testimonialSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema, 409: errorSchema },
    },
    handler: async (request, reply) => {
      const owner = await requireUser(request);
      if (owner.role !== 'server_owner') throw forbidden(MSG.onlyOwnersTestimonial);
      try {
        await db.insertInto('testimonials').values({ ownerId: owner.id, content: request.body.content }).execute();
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(MSG.testimonialExists);
        throw error;
      }
      const [mine] = await list(owner.id);
      return reply.code(201).send(mine!);
    },
  });
}
