import { DEFAULT_LOCALE, LOCALES, LOCALE_PARAM, type Locale } from '../../../shared/i18n/locales';
import { serverT } from '../../i18n/translate';
import { parseId } from '../../lib/ids';
import { metaTags, SITE, type PageMeta } from './meta';
import type { SeoRepository } from './seo.repository';
import type { Server } from '../../../shared/schemas/server';

const STATIC_PAGES = ['/', '/home', '/search', '/list', '/subscriptions', '/testimonials'];

/** Link previews of the web app's pages, `robots.txt` and `sitemap.xml`, all with absolute URLs. */
export function seoService({
  repository,
  listedServer,
  publicUrl,
}: {
  repository: SeoRepository;
  /**
   * A server anyone may see, or undefined: from the server pages' cache, so a server page's HTML
   * reads its server once for its preview and its content (docs/decisions/062-server-pages-read-together.md).
   */
  listedServer: (id: number) => Promise<Pick<Server, 'id' | 'name' | 'statusMessage' | 'bio' | 'banner'> | undefined>;
  publicUrl: string;
}) {
  /**
   * The tags a path's HTML carries: a server page gets its name, status and live banner, so a link
   * pasted into Discord shows a card; every other page the site's own.
   */
  const metaForPath = async (pathname: string, locale: Locale = DEFAULT_LOCALE): Promise<PageMeta> => {
    const t = serverT(locale);
    const url = localizedUrl(pathname, locale);
    const alternates = alternatesOf(pathname);
    const match = /^\/servers\/([^/]+)\/?$/.exec(pathname);
    const id = match ? parseId(match[1]) : undefined;
    if (id) {
      const server = await listedServer(id);
      if (server) {
        return {
          title: `${server.name} · ${SITE}`,
          description: (server.statusMessage || server.bio || t('meta.description')).slice(0, 200),
          // The live banner at link-preview size: Discord and the rest show today's players and rank.
          image: `${publicUrl}/servers/${server.id}/banner.png?size=1200x630`,
          // The page's largest picture: fetched with the page's scripts, not after they have run.
          preloadImage: server.banner,
          url,
          locale,
          alternates,
        };
      }
    }
    return {
      title: `${SITE} · ${t('meta.tagline')}`,
      description: t('meta.description'),
      image: `${publicUrl}/icons/icon-512.png`,
      url,
      locale,
      alternates,
    };
  };

  /** A page's address pinned to a language (`?lang=de`); English's is the plain one. */
  const localizedUrl = (pathname: string, locale: Locale) =>
    locale === DEFAULT_LOCALE ? `${publicUrl}${pathname}` : `${publicUrl}${pathname}?${LOCALE_PARAM}=${encodeURIComponent(locale)}`;
  /** Every language's address of a page, and the plain one for any other language (`x-default`). */
  const alternatesOf = (pathname: string): Array<{ hreflang: string; href: string }> => [
    ...LOCALES.map((l) => ({ hreflang: l, href: localizedUrl(pathname, l) })),
    { hreflang: 'x-default', href: `${publicUrl}${pathname}` },
  ];

  return {
    metaForPath,

    /** The `<title>`, preview and language-alternate tags of a path's HTML in a language. */
    metaTagsForPath: async (pathname: string, locale: Locale = DEFAULT_LOCALE): Promise<string> =>
      metaTags(await metaForPath(pathname, locale)),

    /** The app's description in a language, for its manifest. */
    appDescription: (locale: Locale): string => serverT(locale)('meta.manifestDescription'),

    /** Crawlers may read the public pages, not the API, the dashboard or the admin pages. */
    robotsTxt: (): string =>
      `User-agent: *\nDisallow: /api/\nDisallow: /dashboard\nDisallow: /admin\nAllow: /\nSitemap: ${publicUrl}/sitemap.xml\n`,

    /**
     * The public pages and every listed server's page, each in every language: one `<url>` per
     * language's address, each naming all of them as alternates (as search engines ask).
     */
    async sitemapXml(): Promise<string> {
      const servers = await repository.listedServers();
      const links = (pathname: string) =>
        alternatesOf(pathname)
          .map((a) => `<xhtml:link rel="alternate" hreflang="${a.hreflang}" href="${escapeXml(a.href)}"/>`)
          .join('');
      const entries = (pathname: string, lastmod?: string) => {
        const alternates = links(pathname);
        return LOCALES.map(
          (l) =>
            `  <url><loc>${escapeXml(localizedUrl(pathname, l))}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}${alternates}</url>`,
        ).join('\n');
      };
      const urls = [
        ...STATIC_PAGES.map((p) => entries(p)),
        ...servers.map((s) => entries(`/servers/${s.id}`, s.updatedAt.toISOString().slice(0, 10))),
      ];
      return (
        `<?xml version="1.0" encoding="UTF-8"?>\n` +
        `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`
      );
    },
  };
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Link previews, robots.txt and the sitemap. */
export type SeoService = ReturnType<typeof seoService>;
