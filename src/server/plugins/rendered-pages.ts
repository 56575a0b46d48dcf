import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Locale } from '../../shared/i18n/locales';
import { PAGE_ANSWER_HEADERS, PRERENDER_IDS, RENDERED_AT_ATTRIBUTE, type PageAnswers, type PageRenderer } from '../../shared/prerender';

/**
 * The public pages people arrive on (`/home`, `/list`, a server page), rendered here from the API's own
 * answers so they paint with their content before any script has run; the answers travel in the
 * page and the app starts from them. See docs/decisions/042-server-rendered-pages.md.
 */

/**
 * The web build's page renderer (dist/web-ssr/render.js beside dist/web), when the build made one.
 * Its URL carries the file's time and size: Node keeps a module that failed to load under its URL
 * and fails the same way on every later import, so a renderer fixed by a new build (a deploy caught
 * half-written) would otherwise never load until a restart. The same file is one URL: loaded once.
 */
export async function loadPageRenderer(webDist: string): Promise<PageRenderer | undefined> {
  const file = path.join(webDist, '..', 'web-ssr', 'render.js');
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return undefined;
  }
  const url = pathToFileURL(file);
  url.search = `v=${stat.mtimeMs}-${stat.size}`;
  return (await import(url.href)) as PageRenderer;
}

/** A page's rendered markup for `#root`, the answers it was rendered from (as HTML-safe JSON) and when. */
export interface RenderedRoot {
  markup: string;
  answersJson: string;
  /** Ms since the epoch: the clock the page was drawn with. */
  renderedAt: number;
}

// Says it is a robot, so a rendering counts no view: the visitor's view is counted when the app
// refreshes the page's answers from the API as it starts.
const RENDERER_USER_AGENT = 'RP-Servers-PageRenderer (bot)';

/**
 * Renders the page at `location` (a path, with the part of its query string the page draws from)
 * from the answers of the API routes it needs, asked in-process exactly as the
 * app would ask them (anonymous GETs). `null` when the path is not a rendered page, an answer is
 * not a 200 (a removed server gets the app, which shows its not-found state) or anything fails:
 * the page is then served as the app, never as an error.
 */
export async function renderRoot(
  app: FastifyInstance,
  renderer: PageRenderer,
  location: string,
  locale: Locale,
): Promise<RenderedRoot | null> {
  try {
    const requests = renderer.requestsFor(location);
    if (!requests) return null;
    const responses = await Promise.all(
      requests.map((url) => app.inject({ method: 'GET', url, headers: { accept: 'application/json', 'user-agent': RENDERER_USER_AGENT } })),
    );
    if (responses.some((response) => response.statusCode !== 200)) return null;
    const answers: PageAnswers = {};
    requests.forEach((url, i) => {
      const response = responses[i]!;
      const headers: Record<string, string> = {};
      for (const name of PAGE_ANSWER_HEADERS) {
        const value = response.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      answers[url] = { data: response.json(), headers };
    });
    const renderedAt = Date.now();
    return { markup: await renderer.renderPage(location, answers, renderedAt, locale), answersJson: jsonForHtml(answers), renderedAt };
  } catch (error) {
    app.log.warn({ err: error, location, locale }, 'page render failed: serving the app without it');
    return null;
  }
}

/**
 * JSON that is safe inside `<script type="application/json">`: no `<` at all, so no text from a
 * server's name or a review can close the element (`</script>`) or open a comment.
 */
export function jsonForHtml(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The app's built page reshaped for a rendered page: its module scripts come out of the head and
 * are loaded by `/ssr-boot.js` once the page has painted, in the same order, and `#root` is where
 * the rendered markup goes.
 */
export interface RenderedTemplate {
  /** The head without the module scripts, up to where the per-path tags go. */
  head: string;
  /** The module scripts, in document order. */
  scripts: string[];
  /** From `</head>` to the inside of `<div id="root">`. */
  beforeRoot: string;
  /** From the closing tag of `#root` (`</div>`, first) to the end. */
  afterRoot: string;
}

export function renderedTemplate(template: { head: string; tail: string }): RenderedTemplate | undefined {
  const scripts: string[] = [];
  const head = template.head.replace(/[ \t]*<script type="module"[^>]*\bsrc="([^"]+)"[^>]*><\/script>\n?/g, (_tag, src: string) => {
    scripts.push(src);
    return '';
  });
  const open = template.tail.indexOf('<div id="root">');
  const close = template.tail.lastIndexOf('</div>', template.tail.search(/<\/body>/i));
  if (scripts.length === 0 || open < 0 || close < open) return undefined;
  return {
    head,
    scripts,
    beforeRoot: template.tail.slice(0, open + '<div id="root">'.length),
    afterRoot: template.tail.slice(close),
  };
}

/** The whole HTML of a rendered page. */
export function renderedPageHtml(template: RenderedTemplate, headTags: string, preloads: string[], root: RenderedRoot): string {
  const boot = jsonForHtml({ scripts: template.scripts, preloads });
  return (
    `${template.head}  ${headTags}\n` +
    `    <script id="${PRERENDER_IDS.boot}" type="application/json">${boot}</script>\n` +
    `    <script src="/ssr-boot.js" defer></script>\n  ` +
    template.beforeRoot +
    root.markup +
    // Joined, never through `String.replace`, whose replacement text would expand `$'`, `$&` and
    // the like written by an owner or a reviewer.
    '</div>' +
    `\n    <script id="${PRERENDER_IDS.answers}" type="application/json" ${RENDERED_AT_ATTRIBUTE}="${root.renderedAt}">` +
    `${root.answersJson}</script>` +
    template.afterRoot.slice('</div>'.length)
  );
}
