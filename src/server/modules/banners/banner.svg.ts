/** What a banner shows: live from the server's public data. */
export interface BannerData {
  name: string;
  game: string | null;
  online: boolean | null;
  currentPlayers: number;
  maxPlayers: number | null;
  rank: { position: number; of: number } | null;
  site: string;
}

/** The sizes forums take (468×60, 560×95) and the Open Graph image's (1200×630). */
export const BANNER_SIZES = ['468x60', '560x95', '1200x630'] as const;
export type BannerSize = (typeof BANNER_SIZES)[number];

const LAYOUT: Record<BannerSize, { w: number; h: number; pad: number; title: number; line: number; dot: number }> = {
  '468x60': { w: 468, h: 60, pad: 12, title: 17, line: 12, dot: 6 },
  '560x95': { w: 560, h: 95, pad: 18, title: 22, line: 15, dot: 8 },
  '1200x630': { w: 1200, h: 630, pad: 80, title: 72, line: 40, dot: 22 },
};

const FONT = 'DejaVu Sans, Verdana, Arial, sans-serif';

const escapeXml = (text: string) =>
  text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/** Cuts text to about `width` pixels of a font of `size` (DejaVu Sans averages 0.55 em a letter, bold 0.63). */
function fit(text: string, size: number, width: number, bold = false): string {
  const max = Math.max(4, Math.floor(width / (size * (bold ? 0.63 : 0.55))));
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

const number = (n: number) => n.toLocaleString('en-US');

/** The status line: game, players now (or why there is no number) and rank. */
export function statusLine(data: BannerData): string {
  const players =
    data.online === null
      ? 'not connected'
      : data.online
        ? `${number(data.currentPlayers)}${data.maxPlayers ? `/${number(data.maxPlayers)}` : ''} players`
        : 'offline';
  return [data.game, players, data.rank ? `#${number(data.rank.position)} of ${number(data.rank.of)}` : null].filter(Boolean).join(' · ');
}

/**
 * A banner as SVG: the server's name, a dot for its state (green online, red offline, grey not
 * connected), game, players and rank, and the site's name. Text is escaped; nothing is fetched.
 */
export function bannerSvg(data: BannerData, size: BannerSize): string {
  const l = LAYOUT[size];
  const dotColour = data.online === null ? '#9ca3af' : data.online ? '#22c55e' : '#ef4444';
  const textX = l.pad + l.dot * 2 + l.pad / 2;
  const textWidth = l.w - textX - l.pad;
  const big = size === '1200x630';
  const titleY = big ? l.h / 2 - l.title / 3 : l.pad + l.title;
  const lineY = big ? l.h / 2 + l.line * 1.4 : l.h - l.pad;
  const siteSize = big ? 30 : Math.round(l.line * 0.85);
  // Small sizes put the site's name at the end of the status line.
  const statusWidth = big ? textWidth : textWidth - data.site.length * siteSize * 0.55 - l.pad;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${l.w}" height="${l.h}" viewBox="0 0 ${l.w} ${l.h}">`,
    `<rect width="${l.w}" height="${l.h}" rx="${big ? 0 : 6}" fill="#0f172a"/>`,
    `<rect x="0" y="${l.h - (big ? 12 : 3)}" width="${l.w}" height="${big ? 12 : 3}" fill="#6366f1"/>`,
    `<circle cx="${l.pad + l.dot}" cy="${titleY - l.title / 3}" r="${l.dot}" fill="${dotColour}"/>`,
    `<text x="${textX}" y="${titleY}" font-family="${FONT}" font-size="${l.title}" font-weight="bold" fill="#f8fafc">${escapeXml(fit(data.name, l.title, textWidth, true))}</text>`,
    `<text x="${textX}" y="${lineY}" font-family="${FONT}" font-size="${l.line}" fill="#cbd5e1">${escapeXml(fit(statusLine(data), l.line, statusWidth))}</text>`,
    `<text x="${l.w - l.pad}" y="${big ? l.h - l.pad : lineY}" text-anchor="end" font-family="${FONT}" font-size="${siteSize}" fill="#818cf8">${escapeXml(data.site)}</text>`,
    '</svg>',
  ].join('');
}
