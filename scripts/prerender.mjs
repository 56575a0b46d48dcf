// Renders HTML at build time (see docs/decisions/037-landing-page-without-the-app.md): the landing
// page into dist/web/landing.html, which the server sends for `/` so a first visit paints before any
// script runs and loads no React at all, and the app's frame (navigation, loading state, footer)
// into index.html, so every other page paints before the app's scripts have arrived. The
// components are loaded from source with tsx, as the rest of the tooling loads TypeScript.
// Each page is rendered in every language: `landing.<lang>.html` and `index.<lang>.html` beside the
// English ones, which the server picks by the visitor's language (docs/decisions/054-languages.md).
export const LANDING_SLOT = '<!--landing-->';
export const APP_FRAME_SLOT = '<!--app-frame-->';

/** The built page and its per-language copies' file name: `index.html` → `index.de.html`. */
export function localizedPageFile(file, locale) {
  return locale === 'en' ? file : file.replace(/\.html$/, `.${locale}.html`);
}

/**
 * Loads a TypeScript module from source. tsx is imported on the first call, not at the top: the
 * server imports this file for `localizedPageFile`, and would otherwise load tsx at every start.
 */
const tsImport = async (specifier) => (await import('tsx/esm/api')).tsImport(specifier, import.meta.url);

/** @returns {import('vite').Plugin} */
export function prerenderPlugin() {
  /** Page file → language → the markup rendered into its slot. */
  const rendered = new Map();
  const renderAll = async (render) => {
    const { loadAllNodeI18n } = await tsImport('../src/web/i18n/node.ts');
    const all = await loadAllNodeI18n();
    return new Map(Object.entries(all).map(([locale, i18n]) => [locale, render(i18n)]));
  };
  return {
    name: 'rp-prerender',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      async handler(html, context) {
        const file = context.filename.split(/[\\/]/).pop();
        if (html.includes(LANDING_SLOT)) {
          const { renderLandingPage } = await tsImport('../src/web/features/landing/static/prerender.tsx');
          const markups = await renderAll(renderLandingPage);
          rendered.set(file, markups);
          return html.replace(LANDING_SLOT, () => markups.get('en'));
        }
        if (html.includes(APP_FRAME_SLOT)) {
          const { renderAppFrame } = await tsImport('../src/web/app/frame.prerender.tsx');
          const markups = await renderAll(renderAppFrame);
          rendered.set(file, markups);
          return html.replace(APP_FRAME_SLOT, () => markups.get('en'));
        }
        return html;
      },
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const [file, markups] of rendered) {
          const asset = bundle[file];
          if (!asset || asset.type !== 'asset') continue;
          const source = String(asset.source);
          const english = markups.get('en');
          if (!source.includes(english)) this.error(`${file}: the rendered markup was changed after it was written`);
          for (const [locale, markup] of markups) {
            if (locale === 'en') continue;
            const localized = source.replace('<html lang="en">', `<html lang="${locale}">`).replace(english, () => markup);
            this.emitFile({ type: 'asset', fileName: localizedPageFile(file, locale), source: localized });
          }
        }
      },
    },
  };
}
