import crypto from 'node:crypto';

/** Deterministic pseudo-random numbers, so the demo looks the same on every first start. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hsl = (h: number, s: number, l: number) => `hsl(${Math.round(h)},${s}%,${l}%)`;

/** A skyline or ridge banner in two hues, drawn as SVG and encoded to WebP locally (no downloads). */
function bannerSvg(random: () => number, hue: number): string {
  const w = 1200;
  const h = 400;
  const layers: string[] = [];
  for (let layer = 0; layer < 3; layer++) {
    const base = 220 + layer * 55;
    let x = 0;
    let d = `M0 ${h} L0 ${base}`;
    while (x < w) {
      const bw = 30 + random() * 70;
      const bh = base - 20 - random() * (120 - layer * 30);
      d += ` L${x.toFixed(0)} ${bh.toFixed(0)} L${(x + bw).toFixed(0)} ${bh.toFixed(0)}`;
      x += bw;
    }
    d += ` L${w} ${h} Z`;
    layers.push(`<path d="${d}" fill="${hsl(hue + 200, 30, 12 + layer * 6)}" opacity="${0.55 + layer * 0.2}"/>`);
  }
  const stars = Array.from(
    { length: 40 },
    () =>
      `<circle cx="${(random() * w).toFixed(0)}" cy="${(random() * 200).toFixed(0)}" r="${(random() * 1.8 + 0.4).toFixed(1)}" fill="#fff" opacity="${(0.3 + random() * 0.6).toFixed(2)}"/>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
  <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color="${hsl(hue, 70, 22)}"/><stop offset="0.65" stop-color="${hsl(hue + 35, 80, 55)}"/><stop offset="1" stop-color="${hsl(hue + 60, 90, 70)}"/>
  </linearGradient></defs>
  <rect width="100%" height="100%" fill="url(#sky)"/>${stars.join('')}
  <circle cx="${(200 + random() * 800).toFixed(0)}" cy="${(150 + random() * 60).toFixed(0)}" r="${(40 + random() * 30).toFixed(0)}" fill="${hsl(hue + 50, 95, 80)}" opacity="0.9"/>
  ${layers.join('')}
</svg>`;
}

/** A round emblem: gradient disc with a geometric badge. */
function emblemSvg(random: () => number, hue: number): string {
  const sides = 3 + Math.floor(random() * 4);
  const points = Array.from({ length: sides }, (_, i) => {
    const a = (i / sides) * Math.PI * 2 - Math.PI / 2;
    return `${(128 + Math.cos(a) * 70).toFixed(1)},${(128 + Math.sin(a) * 70).toFixed(1)}`;
  }).join(' ');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256">
  <defs><radialGradient id="g" cx="0.35" cy="0.3" r="0.9">
    <stop offset="0" stop-color="${hsl(hue + 30, 85, 62)}"/><stop offset="1" stop-color="${hsl(hue, 70, 28)}"/>
  </radialGradient></defs>
  <rect width="256" height="256" fill="url(#g)"/>
  <polygon points="${points}" fill="none" stroke="#fff" stroke-width="12" stroke-linejoin="round" opacity="0.92"/>
  <circle cx="128" cy="128" r="${(16 + random() * 16).toFixed(0)}" fill="#fff" opacity="0.85"/>
</svg>`;
}

export interface GeneratedImage {
  key: string;
  data: Buffer;
  width: number;
  height: number;
}

async function encode(svg: string, folder: string): Promise<GeneratedImage> {
  // Loaded when the demo is seeded, not by every start that imports the seed.
  const { default: sharp } = await import('sharp');
  const { data, info } = await sharp(Buffer.from(svg)).webp({ quality: 78 }).toBuffer({ resolveWithObject: true });
  return { key: `${folder}/${crypto.randomBytes(12).toString('hex')}.webp`, data, width: info.width, height: info.height };
}

export function generateBanner(seed: number, hue: number): Promise<GeneratedImage> {
  return encode(bannerSvg(rng(seed), hue), 'banners');
}

export function generateEmblem(seed: number, hue: number): Promise<GeneratedImage> {
  return encode(emblemSvg(rng(seed), hue), 'profiles');
}
