// Writes dist/web/route-preloads.json: for each public page, the script chunks its page needs beyond
// what the app's entry loads. The server lists them as `<link rel="modulepreload">` in that page's
// HTML, so they download alongside the entry instead of after it has run (see
// docs/decisions/037-landing-page-without-the-app.md).
import path from 'node:path';

export const ROUTE_PRELOADS_FILE = 'route-preloads.json';

/**
 * @param {Record<string, string>} pages path pattern (as the router writes it) → the page's source file, from the project root
 * @returns {import('vite').Plugin}
 */
export function routePreloadsPlugin(pages) {
  const root = path.resolve(import.meta.dirname, '..');
  return {
    name: 'rp-route-preloads',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      /** @param {string} fileName @param {Set<string>} seen */
      const closure = (fileName, seen = new Set()) => {
        if (seen.has(fileName)) return seen;
        seen.add(fileName);
        for (const imported of byFile.get(fileName)?.imports ?? []) closure(imported, seen);
        return seen;
      };
      const entry = chunks.find((chunk) => chunk.isEntry && chunk.name === 'index');
      if (!entry) this.error('route preloads: no chunk for the app entry (index.html)');
      const loaded = closure(entry.fileName);
      /** @type {Record<string, string[]>} */
      const preloads = {};
      for (const [route, source] of Object.entries(pages)) {
        const id = path.resolve(root, source);
        const chunk = chunks.find((c) => c.moduleIds.includes(id));
        if (!chunk) this.error(`route preloads: no chunk holds ${source} (${route})`);
        preloads[route] = [...closure(chunk.fileName)].filter((file) => !loaded.has(file)).map((file) => `/${file}`);
      }
      this.emitFile({ type: 'asset', fileName: ROUTE_PRELOADS_FILE, source: `${JSON.stringify(preloads, null, 2)}\n` });
    },
  };
}
