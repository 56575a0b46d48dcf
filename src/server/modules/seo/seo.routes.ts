import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { SeoService } from './seo.service';

/** `sitemap.xml` (every listed server page) and `robots.txt`, at the site's root. */
export const seoRoutes =
  ({ seo }: { seo: SeoService }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    app.get('/robots.txt', { schema: { hide: true } }, async (_request, reply) => reply.type('text/plain').send(seo.robotsTxt()));

    app.get('/sitemap.xml', { schema: { hide: true } }, async (_request, reply) =>
      reply
        .type('application/xml')
        .header('cache-control', 'public, max-age=3600')
        .send(await seo.sitemapXml()),
    );
  };
