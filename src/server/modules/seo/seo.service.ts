import { parseId } from '../../lib/ids';
import { DEFAULT_DESCRIPTION, metaTags, SITE, type PageMeta } from './meta';
import type { SeoRepository } from './seo.repository';

const STATIC_PAGES = ['/', '/home', '/search', '/list', '/subscriptions', '/testimonials'];

/** Link previews of the web app's pages, `robots.txt` and `sitemap.xml`, all with absolute URLs. */
export function seoService({ repository, publicUrl }: { repository: SeoRepository; publicUrl: string }) {
  /**
   * The tags a path's HTML carries: a server page gets its name, status and live banner, so a link
   * pasted into Discord shows a card; every other page the site's own.
   */
  const metaForPath = async (pathname: string): Promise<PageMeta> => {
    const url = `${publicUrl}${pathname}`;
    const match = /^\/servers\/([^/]+)\/?$/.exec(pathname);
    const id = match ? parseId(match[1]) : undefined;
    if (id) {
      const server = await repository.findListedServer(id);
      if (server) {
        return {
          title: `${server.name} · ${SITE}`,
          description: (server.statusMessage || server.bio || DEFAULT_DESCRIPTION).slice(0, 200),
          // The live banner at link-preview size: Discord and the rest show today's players and rank.
          image: `${publicUrl}/servers/${server.id}/banner.png?size=1200x630`,
          // The page's largest picture: fetched with the page's scripts, not after they have run.
          preloadImage: server.banner,
          url,
        };
      }
    }
    return {
      title: `${SITE} · Find your next roleplay home`,
      description: DEFAULT_DESCRIPTION,
      image: `${publicUrl}/icons/icon-512.png`,
      url,
    };
  };

  return {
    metaForPath,

    /** The `<title>` and preview tags of a path's HTML. */
    metaTagsForPath: async (pathname: string): Promise<string> => metaTags(await metaForPath(pathname)),

    /** Crawlers may read the public pages, not the API, the dashboard or the admin pages. */
    robotsTxt: (): string =>
      `User-agent: *\nDisallow: /api/\nDisallow: /dashboard\nDisallow: /admin\nAllow: /\nSitemap: ${publicUrl}/sitemap.xml\n`,

    /** The public pages and every listed server's page. */
    async sitemapXml(): Promise<string> {
      const servers = await repository.listedServers();
      const urls = [
        ...STATIC_PAGES.map((p) => `  <url><loc>${publicUrl}${p}</loc></url>`),
        ...servers.map(
          (s) => `  <url><loc>${publicUrl}/servers/${s.id}</loc><lastmod>${s.updatedAt.toISOString().slice(0, 10)}</lastmod></url>`,
        ),
      ];
      return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
    },
  };
}

/** Link previews, robots.txt and the sitemap. */
export type SeoService = ReturnType<typeof seoService>;
