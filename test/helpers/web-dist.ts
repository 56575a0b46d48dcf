import fs from 'node:fs';
import path from 'node:path';

/** The smallest built web app: an index.html the server renders meta tags into. */
export const MINIMAL_INDEX_HTML = '<!doctype html><html><head><title>RP</title></head><body><div id="root"></div></body></html>';

/** The built app's page as Vite writes it: module scripts in the head, the frame inside #root (the server renders into it). */
export const APP_INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>RP Servers</title>
    <script type="module" crossorigin src="/assets/react-abc.js"></script>
    <script type="module" crossorigin src="/assets/main-abc.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/styles-abc.css">
  </head>
  <body>
    <div id="root"><div class="frame">Loading…</div></div>
  </body>
</html>`;

/**
 * A built web app of the given files (relative path → content) in a fresh directory under the
 * project (the static plugin serves from it), and a function that removes it.
 */
export function tempWebDist(files: Record<string, string> = { 'index.html': MINIMAL_INDEX_HTML }): { dir: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(process.cwd(), 'tmp-dist-'));
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
