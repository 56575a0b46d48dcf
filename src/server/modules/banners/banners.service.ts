import crypto from 'node:crypto';
import type { Server } from '../../../shared/schemas/server';
import { bannerSvg, type BannerSize } from './banner.svg';

/** A rendered banner and what the route sends with it. */
export interface RenderedBanner {
  body: Buffer;
  type: string;
  etag: string;
}

interface Deps {
  /** A server anyone may see, with its rank (404 otherwise). */
  publicServer: (id: number) => Promise<Server>;
  /** SVG to PNG (sharp, loaded on first use). */
  renderPng: (svg: string) => Promise<Buffer>;
  site: string;
}

/** Most rendered banners kept at once (2–30 KB each). */
const MAX_KEPT = 300;

/**
 * Live banners for forums and link previews: drawn from the server's public data, read for each
 * request from the server page's cache (so a hidden server's banner is gone as soon as its page),
 * and rendered once for each distinct picture: a PNG is made again only when what it shows changes.
 */
export function bannersService({ publicServer, renderPng, site }: Deps) {
  const rendered = new Map<string, Promise<RenderedBanner>>();

  const render = async (svg: string, format: 'svg' | 'png'): Promise<RenderedBanner> => {
    const body = format === 'svg' ? Buffer.from(svg) : await renderPng(svg);
    return {
      body,
      type: format === 'svg' ? 'image/svg+xml; charset=utf-8' : 'image/png',
      etag: `"${crypto.createHash('sha1').update(body).digest('base64url')}"`,
    };
  };

  return {
    /** The banner of a server anyone may see, as it is now (404 otherwise). */
    async banner(id: number, size: BannerSize, format: 'svg' | 'png'): Promise<RenderedBanner> {
      const server = await publicServer(id);
      const svg = bannerSvg(
        {
          name: server.name,
          game: server.rank?.game?.name ?? null,
          online: server.online,
          currentPlayers: server.currentPlayers,
          maxPlayers: server.maxPlayers,
          rank: server.rank ? { position: server.rank.position, of: server.rank.of } : null,
          site,
        },
        size,
      );
      const key = `${format}:${crypto.createHash('sha1').update(svg).digest('base64url')}`;
      let banner = rendered.get(key);
      if (!banner) {
        banner = render(svg, format);
        rendered.set(key, banner);
        if (rendered.size > MAX_KEPT) rendered.delete(rendered.keys().next().value as string);
        banner.catch(() => rendered.delete(key));
      }
      return banner;
    },
  };
}

/** Banners, as routes receive them. */
export type BannersService = ReturnType<typeof bannersService>;
