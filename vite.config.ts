import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { precompressPlugin } from './scripts/precompress.mjs';
import { prerenderPlugin } from './scripts/prerender.mjs';
import { pageBootPlugin, pageRendererPlugin, REACT_ROUTER_PRODUCTION } from './scripts/build-ssr.mjs';
import { routePreloadsPlugin } from './scripts/route-preloads.mjs';
import { catalogsPlugin } from './scripts/lib/catalogs.mjs';
import { LOCALES } from './src/shared/i18n/locales';

const root = path.resolve(import.meta.dirname, 'src/web');

/** React Router's production build for built bundles (see scripts/build-ssr.mjs); `npm run dev` keeps the development one. */
const routerAliases = Object.entries(REACT_ROUTER_PRODUCTION).map(([name, file]) => ({ find: new RegExp(`^${name}$`), replacement: file }));

/** The web app: root `src/web`, built into `dist/web`, which the Fastify server serves (one origin for the web app, the API and the socket). */
export default defineConfig(({ command }) => ({
  root,
  resolve: { alias: command === 'build' ? routerAliases : [] },
  publicDir: path.join(root, 'public'),
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/web'),
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      // Two pages: the app, and the landing page rendered at build time with a script of its own
      // (docs/decisions/037-landing-page-without-the-app.md).
      input: { index: path.join(root, 'index.html'), landing: path.join(root, 'landing.html') },
      output: {
        // React and the router change less often than the app: their own chunk stays cached across
        // releases. Every other library stays with the pages that use it (one catch-all vendor chunk
        // would put zod, socket.io and the rest on the landing page's critical path).
        codeSplitting: {
          groups: [
            // Sets zod's global config before the chunk holding zod and the schemas runs (see the module).
            { name: 'zod-jitless', test: /src[\\/]web[\\/]lib[\\/]zod-jitless\.ts$/, priority: 2 },
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    // `npm run dev` runs the API on 3000; the dev server forwards API, uploads and socket to it.
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/uploads': 'http://127.0.0.1:3000',
      '/socket.io': { target: 'ws://127.0.0.1:3000', ws: true },
    },
  },
  plugins: [
    catalogsPlugin(),
    react(),
    tailwindcss(),
    prerenderPlugin(),
    pageRendererPlugin(),
    pageBootPlugin(),
    // The public pages people arrive on, as app/router.tsx maps them: their chunks are preloaded
    // from the HTML rather than found after the entry has run.
    routePreloadsPlugin(
      {
        '/home': 'src/web/features/servers/components/home-page.tsx',
        '/list': 'src/web/features/servers/components/list-page.tsx',
        '/search': 'src/web/features/servers/components/search-page.tsx',
        '/servers/:id': 'src/web/features/servers/components/server-page.tsx',
      },
      Object.fromEntries(LOCALES.map((locale) => [locale, `src/web/i18n/catalogs/${locale}/index.ts`])),
    ),
    VitePWA({
      registerType: 'prompt',
      // The app registers the worker itself (useRegisterSW); the CSP forbids an injected inline script.
      injectRegister: false,
      includeAssets: ['favicon.svg', 'icons/apple-touch-icon.png'],
      manifest: {
        name: 'RP Servers',
        short_name: 'RP Servers',
        description: 'Discover and promote roleplay game servers: FiveM, RedM, Minecraft and Garry’s Mod.',
        theme_color: '#0b0d17',
        background_color: '#0b0d17',
        display: 'standalone',
        start_url: '/',
        scope: '/',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      // Our own worker (src/web/sw.ts): precache and navigation fallback as before, plus web push.
      strategies: 'injectManifest',
      srcDir: '.',
      filename: 'sw.ts',
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        // Every language's copy of the pages is the server's to pick; the worker's copy is the
        // English one, and the app starts in the visitor's language over it (docs/decisions/054-languages.md).
        globIgnores: ['**/*.{pt-BR,es,fr,de,pl,tr}.html'],
      },
    }),
    // Last: `.br` and `.gz` next to each built text file, the service worker included.
    precompressPlugin(),
  ],
}));
