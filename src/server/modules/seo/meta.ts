const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** What a page's link preview shows. */
export interface PageMeta {
  title: string;
  description: string;
  image?: string | null;
  /** An uploaded picture the page shows at the top (a server's banner), preloaded from the HTML. */
  preloadImage?: string | null;
  url: string;
}

/** The site's name, in every title and `og:site_name`. */
export const SITE = 'RP Servers';

/** The description of every page that has none of its own. */
export const DEFAULT_DESCRIPTION =
  'Discover live roleplay game servers — FiveM, RedM, Minecraft, Garry’s Mod — and join the communities that fit you.';

/** Open Graph and Twitter card tags, escaped: server names are user text. */
export function metaTags(meta: PageMeta): string {
  const image = meta.image
    ? `<meta property="og:image" content="${escapeHtml(meta.image)}" />\n    <meta name="twitter:image" content="${escapeHtml(meta.image)}" />`
    : '';
  return `<title>${escapeHtml(meta.title)}</title>
    <meta name="description" content="${escapeHtml(meta.description)}" />
    <meta property="og:site_name" content="${SITE}" />
    <meta property="og:type" content="website" />
    <meta property="og:title" content="${escapeHtml(meta.title)}" />
    <meta property="og:description" content="${escapeHtml(meta.description)}" />
    <meta property="og:url" content="${escapeHtml(meta.url)}" />
    ${image}
    <meta name="twitter:card" content="${meta.image ? 'summary_large_image' : 'summary'}" />
    <meta name="twitter:title" content="${escapeHtml(meta.title)}" />
    <meta name="twitter:description" content="${escapeHtml(meta.description)}" />${preloadImage(meta.preloadImage)}`;
}

/** Only our own uploads: the tag names a path of this site, never another origin. */
function preloadImage(src: string | null | undefined): string {
  if (!src || !/^\/uploads\/[\w./-]+$/.test(src) || src.includes('..')) return '';
  return `\n    <link rel="preload" as="image" href="${escapeHtml(src)}" fetchpriority="high" />`;
}
