import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Locale } from '../../shared/i18n/locales';
import { MSG } from '../../shared/messages';
import type { PageRenderer } from '../../shared/prerender';
import type { FrontCache } from '../lib/front-cache';
import { chooseEncoding, matchesEtag } from '../lib/cached-body';
import { requestLocale } from '../lib/request-locale';
import { LANGUAGE_HEADERS, VARIES_BY_LANGUAGE, catalogPreloads, localizedTemplates, mapLocales, serveManifests } from './localized-pages';
import { PageCache, type CachedPage } from './page-cache';
import { loadPageRenderer, renderedPageHtml, renderedTemplate, renderRoot } from './rendered-pages';

const MAX_RENDERINGS_AT_ONCE = 4;
/** A page renderer that did not load (not built yet, or its import failed) is tried again this long after. */
const RENDERER_RETRY_MS = 60_000;
const HTML_TYPE = 'text/html; charset=utf-8';

/**
 * Serves the built web app and uploaded files from one origin. Unknown `/api/…`
 * paths answer 404 JSON; every other unknown GET serves the app, whose router sends it to `/`.
 */
export async function registerWebApp(
  app: FastifyInstance,
  options: {
    webDist: string;
    uploadsDir: string;
    /** A path's title, description, preview and language-alternate tags, in a language. */
    meta: (pathname: string, locale: Locale) => Promise<string>;
    /** The app's description in a language (its manifest, for an installed app). */
    appDescription?: (locale: Locale) => string;
    /** How long a path's HTML is served as made, before its meta tags are asked again (as long as a cached list). */
    freshForMs: number;
    /** Renders the public pages on the server; by default the web build's (dist/web-ssr), when there is one. */
    pageRenderer?: PageRenderer;
    /** How long after the web build's renderer failed to load it is tried again (tests make it short). */
    rendererRetryMs?: number;
    /** Where a page made for everyone alike is answered from while it is fresh (docs/decisions/039-front-cache.md). */
    front?: FrontCache;
    /**
     * Subscribes to the changes that empty the API's caches (an edit, a removal, moderation,
     * settings, a boost: everything but a vote, a join or a game poll's counts): every page is made
     * again on its next request, as the API's answers are, not after its fresh time.
     */
    onContentChanged?: (listener: () => void) => void;
    /**
     * Subscribes to changes of counters alone (a vote, a join, a game poll's counts, a new month):
     * a page drawn with its content is made again soon after one (see `PageCache`).
     */
    onCountersChanged?: (listener: () => void) => void;
    /** How long after such a change the answers pages are drawn from may still not show it. */
    answersBehindMs?: number;
  },
): Promise<void> {
  fs.mkdirSync(options.uploadsDir, { recursive: true });
  await app.register(fastifyStatic, {
    root: options.uploadsDir,
    prefix: '/uploads/',
    decorateReply: false,
    index: false,
    // Each upload gets a new random name, so a year-long immutable cache is safe.
    maxAge: '365d',
    immutable: true,
    setHeaders: (res) => res.header('x-content-type-options', 'nosniff'),
  });

  const indexFile = path.join(options.webDist, 'index.html');
  const built = fs.existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root: options.webDist,
      prefix: '/',
      wildcard: false,
      index: false,
      // `npx vite build` writes `.br` and `.gz` next to each text file (scripts/precompress.mjs): the
      // variant the browser accepts is sent as is, with `Vary: Accept-Encoding`.
      preCompressed: true,
      setHeaders: (res, file) => {
        // Hashed assets never change; the service worker and manifest must always be revalidated.
        if (file.includes(`${path.sep}assets${path.sep}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
        else res.header('cache-control', 'no-cache');
      },
    });
  }
  // The page's title, description and Open Graph tags are rendered into the HTML per path, so
  // link previews (Discord, search engines) see them without running the app. Each language has
  // its copy of the built pages (docs/decisions/054-languages.md).
  const appPages = built ? localizedTemplates(options.webDist, 'index.html') : undefined;
  // `/` is the landing page rendered at build time, with a script of its own instead of the app
  // (docs/decisions/037-landing-page-without-the-app.md); a build without it serves the app there.
  const landingFile = path.join(options.webDist, 'landing.html');
  const landingPages = built && fs.existsSync(landingFile) ? localizedTemplates(options.webDist, 'landing.html') : appPages;
  const appDescription = options.appDescription;
  if (built && appDescription) serveManifests(app, options.webDist, appDescription);

  const routeFiles = routePreloads(options.webDist);
  const catalogFiles = catalogPreloads(options.webDist);
  // A page of the app preloads its route's chunks and its language's catalog.
  const preloads = (pathname: string, locale: Locale) => [...(catalogFiles[locale] ?? []), ...routeFiles(pathname)];
  // `/home`, `/list` and server pages are rendered here with their content
  // (docs/decisions/042-server-rendered-pages.md). The renderer (React and the pages, ~40 MB) loads
  // with the first app page asked for (a GET of any path but `/` outside `/api/` and `/uploads/`),
  // so an instance that serves no page never holds it.
  const rendered = appPages ? mapLocales((locale) => renderedTemplate(appPages[locale])) : undefined;
  // One that is missing or fails is tried again a minute later (a deploy still writing the build):
  // until then pages are served as the app's frame, which still works, only paints later.
  let renderer: Promise<PageRenderer | undefined> | undefined;
  let retryAt = Infinity;
  const pageRenderer = (): Promise<PageRenderer | undefined> => {
    if (options.pageRenderer) return Promise.resolve(options.pageRenderer);
    if (!renderer || Date.now() >= retryAt) {
      retryAt = Infinity;
      renderer = loadPageRenderer(options.webDist)
        .catch((error: unknown) => {
          app.log.error({ err: error }, 'the page renderer did not load: pages are served without it');
          return undefined;
        })
        .then((loaded) => {
          if (!loaded) retryAt = Date.now() + (options.rendererRetryMs ?? RENDERER_RETRY_MS);
          return loaded;
        });
    }
    return renderer;
  };

  const pages = new PageCache({ answersBehindMs: options.answersBehindMs, holdMs: options.freshForMs, keepFromSecondAsk: true });
  options.onCountersChanged?.(() => pages.countersChanged());
  const making = new Map<string, Promise<CachedPage>>();
  // Counts content changes: a page whose making began before one is sent to who asked, not kept.
  let generation = 0;
  options.onContentChanged?.(() => {
    generation += 1;
    pages.clear();
    making.clear();
  });
  // Renderings at once: a client asking for many different pages gets the app's frame for the rest
  // (cached like any page) instead of holding the CPU every other request needs.
  let renderingNow = 0;
  const renderIfFree = async (render: PageRenderer, location: string, locale: Locale) => {
    if (renderingNow >= MAX_RENDERINGS_AT_ONCE) return null;
    renderingNow += 1;
    try {
      return await renderRoot(app, render, location, locale);
    } finally {
      renderingNow -= 1;
    }
  };
  /**
   * `key` is the page's cache key: its language and the path, or a rendered page's location
   * (`de /list?tab=popular`); `location` is the part after the language.
   */
  const makePage = async (
    key: string,
    location: string,
    pathname: string,
    locale: Locale,
    template: { head: string; tail: string },
    /** The chunks the page preloads: its route's and its language's catalog (none for the landing page, which loads no app). */
    files: string[],
    render?: PageRenderer,
    /** Made again while the held one is still sent: kept only if drawn with its content, as the held one is. */
    again = false,
  ): Promise<CachedPage> => {
    const started = generation;
    const startedAt = Date.now();
    const meta = await options.meta(pathname, locale);
    const root = render ? await renderIfFree(render, location, locale) : null;
    const renderedIn = rendered?.[locale];
    const [html, withContent] =
      renderedIn && root
        ? [renderedPageHtml(renderedIn, meta, files, root), true]
        : [`${template.head}  ${modulePreloadTags(files)}${meta}\n  ${template.tail}`, false];
    // Made from data that changed meanwhile: sent to who asked, not kept (nor put over a newer one).
    // Nor is the app's frame put over a page drawn with its content (every renderer was busy).
    const keep = started === generation && (withContent || !again);
    return keep ? pages.get(key, html, withContent, startedAt) : pages.make(key, html, withContent);
  };
  const sendApp = async (request: FastifyRequest, reply: FastifyReply, pathname: string) => {
    const { locale, pinned } = requestLocale(request.url, request.headers);
    const templates = pathname === '/' ? landingPages : appPages;
    if (templates === undefined) {
      return reply.code(503).type('text/plain').send('The web app is not built yet: run `npm run build` (npm start does it for you).');
    }
    const template = templates[locale];
    // A rendered page is cached per language and location (its path and the part of the query
    // string it draws from); every other page per language and path.
    const render = rendered && templates === appPages ? await pageRenderer() : undefined;
    const location = render?.locationFor(request.url) ?? null;
    const place = location ?? pathname;
    const key = `${locale} ${place}`;
    // The landing page and a shared server link are the hottest HTML: made once, served from memory;
    // requests arriving while it is made wait for that one rendering.
    const make = (again: boolean): Promise<CachedPage> => {
      const pending = making.get(key);
      if (pending) return pending;
      const files = templates === appPages ? preloads(pathname, locale) : [];
      const made: Promise<CachedPage> = makePage(
        key,
        place,
        pathname,
        locale,
        template,
        files,
        location ? render : undefined,
        again,
      ).finally(() => {
        // A content change may have started another making of this page meanwhile.
        if (making.get(key) === made) making.delete(key);
      });
      making.set(key, made);
      return made;
    };
    const held = pages.held(key, options.freshForMs);
    // A page a few votes behind is still sent while its next one is made: nobody waits for it.
    if (held?.behind) make(true).catch((err: unknown) => request.log.warn({ err }, 'a page could not be made again'));
    const page = held?.page ?? (await make(false));
    // The same HTML for everyone (a visitor's own state is fetched by the app): the landing page
    // and the pages rendered with their content, under the one spelling each is cached by
    // (`/list?tab=popular`, not `/list/` or `/servers/01`), are answered before Fastify while
    // fresh. Nothing else is offered (an unknown path, a misspelling, a missing server's frame):
    // strangers cannot crowd the front cache with them.
    // Held under its URL for every language: the front cache asks which language a request is in.
    // Only a page the cache holds: one made for a single ask would be offered for nothing, and a
    // crawl of them would push the pages people ask for out of the front cache's table.
    if (options.front && request.url === place && (place === '/' || page.rendered) && pages.held(key, options.freshForMs)?.page === page) {
      options.front.offer(request.url, (incoming) => {
        const asked = requestLocale(incoming.url ?? place, incoming.headers).locale;
        const held = pages.fresh(`${asked} ${place}`, options.freshForMs);
        return held && { body: held.body, type: HTML_TYPE, headers: LANGUAGE_HEADERS[asked] };
      });
    }
    // A page pinned to its language by its URL is the same for everyone; any other differs by
    // the browser's languages and the device's choice (a cookie).
    reply
      .header('cache-control', 'no-cache')
      .header('vary', pinned ? 'Accept-Encoding' : VARIES_BY_LANGUAGE)
      .header('content-language', locale)
      .header('etag', page.etag);
    // A 304 carries no content type, as the front cache sends it.
    if (matchesEtag(request.headers['if-none-match'], page.etag)) return reply.code(304).send();
    reply.type(HTML_TYPE);
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    if (!encoding) return reply.send(page.html);
    return reply.header('content-encoding', encoding).send(page.compressed(encoding));
  };

  // The pages people land on get routes of their own: the not-found path is the slow one.
  for (const url of ['/', '/home', '/list', '/search', '/servers/:id']) {
    app.get(url, { schema: { hide: true } }, (request, reply) => sendApp(request, reply, request.url.split('?')[0] ?? '/'));
  }
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (url === '/api' || url.startsWith('/api/') || url.startsWith('/uploads/') || request.method !== 'GET') {
      return reply.code(404).send({ error: MSG.notFound });
    }
    return sendApp(request, reply, url);
  });
}

/**
 * The chunks a path's page needs beyond the app's entry, written at build
 * (scripts/route-preloads.mjs), so they load alongside the entry.
 */
function routePreloads(webDist: string): (pathname: string) => string[] {
  const file = path.join(webDist, 'route-preloads.json');
  if (!fs.existsSync(file)) return () => [];
  const routes = Object.entries(JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string[]>).map(([route, files]) => ({
    // `/servers/:id` becomes one path segment where the parameter is, and an optional trailing slash.
    pattern: new RegExp(
      `^${route
        .split(/:[a-z]+/i)
        .map(escapeRegExp)
        .join('[^/]+')}/?$`,
    ),
    files: files.filter((href) => /^\/assets\/[\w.-]+\.js$/.test(href)),
  }));
  return (pathname) => routes.find((route) => route.pattern.test(pathname))?.files ?? [];
}

function modulePreloadTags(files: string[]): string {
  return files.map((href) => `<link rel="modulepreload" crossorigin href="${href}" />\n    `).join('');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
