// The web app's message catalogs (src/web/i18n/catalogs/<language>/<namespace>.json) hold ICU
// MessageFormat text. The build compiles each message into Lingui's compiled form (still JSON:
// strings and arrays), so the browser runs Lingui's small runtime and never its compiler.
// See docs/decisions/054-languages.md.
import { compileMessage } from '@lingui/message-utils/compileMessage';

const CATALOG_FILE = /[\\/]src[\\/]web[\\/]i18n[\\/]catalogs[\\/][^\\/]+[\\/][^\\/]+\.json$/;

/** @param {Record<string, string>} raw */
export function compileCatalog(raw) {
  return Object.fromEntries(Object.entries(raw).map(([id, text]) => [id, compileMessage(text)]));
}

/** @returns {import('vite').Plugin} */
export function catalogsPlugin() {
  return {
    name: 'rp-catalogs',
    // Before Vite's JSON plugin, which then turns the compiled JSON into a module as usual.
    enforce: 'pre',
    transform(code, id) {
      if (!CATALOG_FILE.test(id.split('?')[0] ?? id)) return null;
      return { code: JSON.stringify(compileCatalog(JSON.parse(code))), map: null };
    },
  };
}
