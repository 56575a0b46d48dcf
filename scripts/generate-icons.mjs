// Draws the app icon as SVG and renders the PNG sizes the PWA manifest needs (run once; PNGs are committed).
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const out = path.resolve(import.meta.dirname, '../src/web/public');

/** A stack of three server slabs with status lights, on a violet-to-fuchsia tile. `pad` shrinks the glyph (maskable safe zone). */
function iconSvg({ rounded, pad }) {
  const s = 512;
  const inner = s - pad * 2;
  const k = inner / 512;
  const slab = (y, light) => `
    <rect x="${pad + 112 * k}" y="${pad + y * k}" width="${288 * k}" height="${76 * k}" rx="${18 * k}" fill="#ffffff" fill-opacity="0.95"/>
    <circle cx="${pad + 152 * k}" cy="${pad + (y + 38) * k}" r="${12 * k}" fill="${light}"/>
    <rect x="${pad + 184 * k}" y="${pad + (y + 30) * k}" width="${120 * k}" height="${16 * k}" rx="${8 * k}" fill="#1e1b4b" fill-opacity="0.35"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${s}" height="${s}" viewBox="0 0 ${s} ${s}">
  <defs>
    <linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#7c3aed"/>
      <stop offset="1" stop-color="#db2777"/>
    </linearGradient>
  </defs>
  <rect width="${s}" height="${s}" rx="${rounded ? 112 : 0}" fill="url(#g)"/>
  ${slab(118, '#22c55e')}
  ${slab(218, '#22c55e')}
  ${slab(318, '#facc15')}
</svg>`;
}

const any = Buffer.from(iconSvg({ rounded: true, pad: 0 }));
const maskable = Buffer.from(iconSvg({ rounded: false, pad: 56 }));
fs.mkdirSync(path.join(out, 'icons'), { recursive: true });
fs.writeFileSync(path.join(out, 'favicon.svg'), iconSvg({ rounded: true, pad: 0 }));
await sharp(any).resize(192, 192).png().toFile(path.join(out, 'icons/icon-192.png'));
await sharp(any).resize(512, 512).png().toFile(path.join(out, 'icons/icon-512.png'));
await sharp(maskable).resize(512, 512).png().toFile(path.join(out, 'icons/maskable-512.png'));
await sharp(Buffer.from(iconSvg({ rounded: false, pad: 24 })))
  .resize(180, 180)
  .png()
  .toFile(path.join(out, 'icons/apple-touch-icon.png'));
console.log('icons written to', out);
