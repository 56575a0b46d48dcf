import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema, idParams } from '../../../shared/schemas/common';
import { MSG } from '../../../shared/messages';
import { matchesEtag } from '../../lib/cached-body';
import { BANNER_SIZES } from './banner.svg';
import type { BannersService, RenderedBanner } from './banners.service';

const querystring = z.object({ size: z.enum(BANNER_SIZES, { error: `size must be one of ${BANNER_SIZES.join(', ')}` }).default('468x60') });

/** Sends a banner any site may embed, revalidated by ETag each minute. */
function send(request: FastifyRequest, reply: FastifyReply, banner: RenderedBanner) {
  reply
    .header('etag', banner.etag)
    .header('cache-control', 'public, max-age=60')
    // Forums and chat apps show it from their own pages.
    .header('cross-origin-resource-policy', 'cross-origin');
  if (matchesEtag(request.headers['if-none-match'], banner.etag)) return reply.code(304).send();
  return reply.type(banner.type).send(banner.body);
}

/** `/servers/{id}/banner.svg` and `.png`, at the site's root so they can be linked as images. */
export const bannersRoutes =
  ({ banners }: { banners: BannersService }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    for (const format of ['svg', 'png'] as const) {
      r.get(`/servers/:id/banner.${format}`, {
        schema: { tags: ['banners'], params: idParams(MSG.serverNotFound), querystring, response: { 400: errorSchema, 404: errorSchema } },
        handler: async (request, reply) => send(request, reply, await banners.banner(request.params.id, request.query.size, format)),
      });
    }
  };
