// Renders the landing page at build time into dist/web/landing.html, which the server sends for `/`
// so a first visit paints before any script runs and loads no React at all
// (see docs/decisions/037-landing-page-without-the-app.md). The page's components are loaded from
// source with tsx, as the rest of the tooling loads TypeScript.
import { tsImport } from 'tsx/esm/api';

export const LANDING_SLOT = '<!--landing-->';

/** @returns {import('vite').Plugin} */
export function prerenderLandingPlugin() {
  return {
    name: 'rp-prerender-landing',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      async handler(html) {
        if (!html.includes(LANDING_SLOT)) return html;
        const { renderLandingPage } = await tsImport('../src/web/features/landing/static/prerender.tsx', import.meta.url);
        return html.replace(LANDING_SLOT, renderLandingPage());
      },
    },
  };
}
