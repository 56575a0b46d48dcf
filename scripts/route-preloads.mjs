// Writes dist/web/route-preloads.json: for each public page, the script chunks its page needs beyond
// what the app's entry loads. The server lists them as `<link rel="modulepreload">` in that page's
// HTML, so they download alongside the entry instead of after it has run (see
// docs/decisions/037-landing-page-without-the-app.md).
import path from 'node:path';

export const ROUTE_PRELOADS_FILE = 'route-preloads.json';
/** Each language's catalog chunk, which the server preloads in a page of that language. */
export const CATALOG_PRELOADS_FILE = 'catalog-preloads.json';

/**
 * @param {Record<string, string>} pages path pattern (as the router writes it) → the page's source file, from the project root
 * @param {Record<string, string>} [catalogs] language → its catalog's source file, from the project root
 * @returns {import('vite').Plugin}
 */
export function routePreloadsPlugin(pages, catalogs = {}) {
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
      /**
       * The chunks a source file's chunk needs beyond what the entry loads.
       * @param {Record<string, string>} sources key → source file @param {string} what
       */
      const preloadsOf = (sources, what) => {
        /** @type {Record<string, string[]>} */
        const out = {};
        for (const [key, source] of Object.entries(sources)) {
          const id = path.resolve(root, source);
          const chunk = chunks.find((c) => c.moduleIds.includes(id));
          if (!chunk) this.error(`${what}: no chunk holds ${source} (${key})`);
          out[key] = [...closure(chunk.fileName)].filter((file) => !loaded.has(file)).map((file) => `/${file}`);
        }
        return `${JSON.stringify(out, null, 2)}\n`;
      };
      this.emitFile({ type: 'asset', fileName: ROUTE_PRELOADS_FILE, source: preloadsOf(pages, 'route preloads') });
      this.emitFile({ type: 'asset', fileName: CATALOG_PRELOADS_FILE, source: preloadsOf(catalogs, 'catalog preloads') });
    },
  };
}
