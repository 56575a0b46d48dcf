// Builds the web app's page renderer for Node: dist/web-ssr/render.js, which the server loads to
// render the public pages people arrive on (docs/decisions/042-server-rendered-pages.md). Run by
// the Vite build (the plugin below), so `npm run build` and every "build if stale" path make it.
// Outside dist/web: the renderer is the server's, not a file the site serves.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');
const SSR_OUT = path.join(ROOT, 'dist/web-ssr');

/**
 * React Router's production build, by import path. Its package exports name only the development
 * build (dev-only checks and console warnings), so built bundles alias it here: the page renderer
 * below and the web app's build (vite.config.ts); `npm run dev` keeps the development one
 * (docs/decisions/066-react-router-production-build.md).
 */
export const REACT_ROUTER_PRODUCTION = {
  'react-router': path.join(ROOT, 'node_modules/react-router/dist/production/index.mjs'),
  'react-router/dom': path.join(ROOT, 'node_modules/react-router/dist/production/dom-export.mjs'),
};

export async function buildPageRenderer({ outdir = SSR_OUT } = {}) {
  fs.rmSync(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: ROOT,
    entryPoints: { render: 'src/web/ssr/render.tsx' },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    // React, TanStack Query and zod load from node_modules, as the server's packages do.
    packages: 'external',
    jsx: 'automatic',
    alias: {
      // The service worker's registration is a Vite virtual module; on the server there is none.
      'virtual:pwa-register/react': './src/web/ssr/pwa-register-stub.ts',
      // The router's production build, bundled in.
      ...REACT_ROUTER_PRODUCTION,
    },
    define: { 'process.env.NODE_ENV': '"production"' },
    sourcemap: true,
    logLevel: 'warning',
  });
}

/**
 * The first script of a page rendered on the server, `/ssr-boot.js` (src/web/ssr/boot.ts): loaded
 * by the page's HTML as a classic deferred script (`rendered-pages.ts`), so one file without imports,
 * and at a fixed address, which the server writes into every such page. It starts the app when the
 * visitor first moves (docs/decisions/059-first-load-js.md).
 * @returns {import('vite').Plugin}
 */
export function pageBootPlugin() {
  return {
    name: 'rp-page-boot',
    apply: 'build',
    async generateBundle() {
      const result = await build({
        absWorkingDir: ROOT,
        entryPoints: ['src/web/ssr/boot.ts'],
        bundle: true,
        write: false,
        format: 'iife',
        platform: 'browser',
        // The browsers that run the app's module scripts.
        target: 'es2020',
        minify: true,
        legalComments: 'none',
        logLevel: 'warning',
      });
      this.emitFile({ type: 'asset', fileName: 'ssr-boot.js', source: result.outputFiles[0].text });
    },
  };
}

/** @returns {import('vite').Plugin} */
export function pageRendererPlugin() {
  return {
    name: 'rp-page-renderer',
    apply: 'build',
    async closeBundle() {
      await buildPageRenderer();
    },
  };
}
