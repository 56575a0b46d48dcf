import type { Locale } from '../../../shared/i18n/locales';
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
  /** The page's language (`og:locale`), and its address in every language (`hreflang` alternates). */
  locale?: Locale;
  alternates?: Array<{ hreflang: string; href: string }>;
}

/** The site's name, in every title and `og:site_name`. */
export const SITE = 'RP Servers';

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
    <meta name="twitter:description" content="${escapeHtml(meta.description)}" />${languageTags(meta)}${preloadImage(meta.preloadImage)}`;
}

/** `og:locale` (`pt_BR`) and a `<link rel="alternate" hreflang>` per language of the page. */
function languageTags(meta: PageMeta): string {
  const og = meta.locale ? `\n    <meta property="og:locale" content="${meta.locale.replace('-', '_')}" />` : '';
  const links = (meta.alternates ?? [])
    .map((a) => `\n    <link rel="alternate" hreflang="${escapeHtml(a.hreflang)}" href="${escapeHtml(a.href)}" />`)
    .join('');
  return og + links;
}

/** Only our own uploads: the tag names a path of this site, never another origin. */
function preloadImage(src: string | null | undefined): string {
  if (!src || !/^\/uploads\/[\w./-]+$/.test(src) || src.includes('..')) return '';
  return `\n    <link rel="preload" as="image" href="${escapeHtml(src)}" fetchpriority="high" />`;
}
