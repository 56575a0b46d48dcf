import type { FastifyInstance } from 'fastify';

const STATIC_PAGES = ['/', '/home', '/search', '/list', '/subscriptions', '/testimonials'];

/** `sitemap.xml` (every listed server page) and `robots.txt` (decisions §7). */
export async function seoRoutes(app: FastifyInstance): Promise<void> {
  const { db, config } = app.ctx;
  const base = config.publicUrl;

  app.get('/robots.txt', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/plain')
      .send(`User-agent: *\nDisallow: /api/\nDisallow: /dashboard\nDisallow: /admin\nAllow: /\nSitemap: ${base}/sitemap.xml\n`),
  );

  app.get('/sitemap.xml', { schema: { hide: true } }, async (_request, reply) => {
    const servers = await db
      .selectFrom('servers')
      .select(['id', 'updatedAt'])
      .where('hidden', '=', false)
      .orderBy('id')
      .limit(50_000)
      .execute();
    const urls = [
      ...STATIC_PAGES.map((p) => `  <url><loc>${base}${p}</loc></url>`),
      ...servers.map((s) => `  <url><loc>${base}/servers/${s.id}</loc><lastmod>${s.updatedAt.toISOString().slice(0, 10)}</lastmod></url>`),
    ];
    return reply
      .type('application/xml')
      .header('cache-control', 'public, max-age=3600')
      .send(
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`,
      );
  });
}
