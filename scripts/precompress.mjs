// Pre-compression of the built web app: `name.br` and `name.gz` next to every text file of at least
// 1 KB, so the server sends the smaller variant the browser accepts without compressing per request
// (see docs/decisions/024-first-load.md). Run by Vite after each build (`precompressPlugin`).
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text the browser downloads; images are compressed already and source maps are not sent to users. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml)$/;
export const MIN_BYTES = 1024;

/** @param {string} dir @returns {string[]} */
function filesUnder(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

/** Writes the brotli (quality 11) and gzip (level 9) variants; a variant that is not smaller is not written. */
/** @param {string} dir */
export async function precompressDir(dir) {
  const totals = { files: 0, bytes: 0, br: 0, gz: 0 };
  const files = filesUnder(dir).filter((f) => COMPRESSIBLE.test(f));
  await Promise.all(
    files.map(async (file) => {
      const raw = await fs.promises.readFile(file);
      if (raw.length < MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(raw, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        }),
        gzip(raw, { level: 9 }),
      ]);
      totals.files += 1;
      totals.bytes += raw.length;
      if (br.length < raw.length) {
        await fs.promises.writeFile(`${file}.br`, br);
        totals.br += br.length;
      }
      if (gz.length < raw.length) {
        await fs.promises.writeFile(`${file}.gz`, gz);
        totals.gz += gz.length;
      }
    }),
  );
  return totals;
}

/** Vite plugin: pre-compresses the output directory once everything (the service worker too) is written. */
/** @returns {import('vite').Plugin} */
export function precompressPlugin() {
  let outDir = '';
  /** @type {import('vite').Logger | undefined} */
  let logger;
  return {
    name: 'rp-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      logger = config.logger;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const t = await precompressDir(outDir);
        const kb = (/** @type {number} */ n) => `${(n / 1024).toFixed(1)} kB`;
        logger?.info(`precompressed ${t.files} files: ${kb(t.bytes)} → br ${kb(t.br)}, gzip ${kb(t.gz)}`);
      },
    },
  };
}
