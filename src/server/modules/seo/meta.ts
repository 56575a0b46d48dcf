import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { parseId } from '../../lib/ids';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export interface PageMeta {
  title: string;
  description: string;
  image?: string | null;
  url: string;
}

const SITE = 'RP Servers';
const DEFAULT_DESCRIPTION =
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
    <meta name="twitter:description" content="${escapeHtml(meta.description)}" />`;
}

/**
 * The tags a path's HTML carries: a server page gets its name, status and banner, so a link
 * pasted into Discord shows a card (issue 3); every other page the site's own.
 */
export async function metaForPath(db: Kysely<Database>, publicUrl: string, pathname: string): Promise<PageMeta> {
  const url = `${publicUrl}${pathname}`;
  const match = /^\/servers\/([^/]+)\/?$/.exec(pathname);
  const id = match ? parseId(match[1]) : undefined;
  if (id) {
    const server = await db
      .selectFrom('servers')
      .select(['name', 'statusMessage', 'bio', 'banner', 'profilePicture'])
      .where('id', '=', id)
      .where('hidden', '=', false)
      .executeTakeFirst();
    if (server) {
      const picture = server.banner ?? server.profilePicture;
      return {
        title: `${server.name} · ${SITE}`,
        description: (server.statusMessage || server.bio || DEFAULT_DESCRIPTION).slice(0, 200),
        image: picture ? `${publicUrl}${picture}` : null,
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
}
