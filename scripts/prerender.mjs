// Renders HTML at build time (see docs/decisions/037-landing-page-without-the-app.md): the landing
// page into dist/web/landing.html, which the server sends for `/` so a first visit paints before any
// script runs and loads no React at all, and the app's frame (navigation, loading state, footer)
// into index.html, so every other page paints before the app's scripts have arrived. The
// components are loaded from source with tsx, as the rest of the tooling loads TypeScript.
import { tsImport } from 'tsx/esm/api';

export const LANDING_SLOT = '<!--landing-->';
export const APP_FRAME_SLOT = '<!--app-frame-->';

/** @returns {import('vite').Plugin} */
export function prerenderPlugin() {
  return {
    name: 'rp-prerender',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      async handler(html) {
        if (html.includes(LANDING_SLOT)) {
          const { renderLandingPage } = await tsImport('../src/web/features/landing/static/prerender.tsx', import.meta.url);
          return html.replace(LANDING_SLOT, renderLandingPage());
        }
        if (html.includes(APP_FRAME_SLOT)) {
          const { renderAppFrame } = await tsImport('../src/web/app/frame.prerender.tsx', import.meta.url);
          return html.replace(APP_FRAME_SLOT, renderAppFrame());
        }
        return html;
      },
    },
  };
}
