// The one script a page rendered on the server loads first, built into `/ssr-boot.js` on its own
// (scripts/build-ssr.mjs: a classic script, no imports, a few KB). The page is readable and its
// links work from its HTML (docs/decisions/042-server-rendered-pages.md); the app (React, the
// router, the page's code and its language: ~190 KB gzip) starts when the visitor first moves
// (a touch, a tap, the mouse, a key, the wheel, a scroll), not on arrival, so a phone's first
// seconds go to the page and not to starting an app nobody has used yet. A tap that comes before
// the app has taken over is held and played again once it has. See docs/decisions/059-first-load-js.md.
import { PRERENDER_IDS } from '../../shared/prerender';
import { storage, STORAGE_KEYS } from '../lib/storage';
import { copyTypedValues } from './boot-fields';

/** What the server lists for the app: its module scripts in the page's order, then its route's and language's chunks. */
interface BootList {
  scripts?: string[];
  preloads?: string[];
}

/** Elements appended a task at a time: dozens of requests started in one task block a slow phone. */
const APPEND_BATCH = 4;
/**
 * Prefetches started per idle moment: starting a request costs the page's thread a few ms, up to 25
 * while the browser is busy, and all 40-odd in one task made the longest task of a page's first
 * seconds (85-140 ms on a 2-core host, four times that under a phone's simulated CPU).
 */
const PREFETCH_BATCH = 2;
/** The longest the page waits for an idle moment before it fetches the app's scripts (not run) and counts the visit. */
const IDLE_TIMEOUT_MS = 2000;
/** The first moves of a visitor, each a sign that something on the page is about to be used. */
const MOVES = ['pointerdown', 'touchstart', 'keydown', 'focusin', 'wheel', 'scroll', 'mousemove'] as const;
/** What a tap needs the app for (a link is followed by the browser itself). */
const NEEDS_APP = 'button, [role="button"], [role="tab"], summary, input[type="checkbox"], input[type="radio"]';
/** A server page's own answer: asking it counts the visitor's view (the rendering counted none). */
const COUNTED_ANSWER = /^\/api\/servers\/\d+$/;

function readList(): BootList | null {
  const element = document.getElementById(PRERENDER_IDS.boot);
  if (!element?.textContent) return null;
  try {
    return JSON.parse(element.textContent) as BootList;
  } catch {
    return null;
  }
}

/**
 * Appends `elements` to the head `size` at a time, each later step when `later` runs it (a step
 * that `later` never runs ends the appending); `done` after the last.
 */
function appendInSteps(elements: HTMLElement[], size: number, later: (step: () => void) => void, done = () => {}): void {
  const append = (from: number) => {
    for (const element of elements.slice(from, from + size)) document.head.appendChild(element);
    if (from + size < elements.length) later(() => append(from + size));
    else done();
  };
  append(0);
}

function whenIdle(task: () => void): void {
  if ('requestIdleCallback' in window) window.requestIdleCallback(task, { timeout: IDLE_TIMEOUT_MS });
  else setTimeout(task, IDLE_TIMEOUT_MS);
}

function boot(list: BootList): void {
  const scripts = list.scripts ?? [];
  const chunks = [...scripts, ...(list.preloads ?? [])];
  let starting = false;
  /** The last tap or submission that came while the app was on its way: played again once it is there. */
  let held: { element: HTMLElement; submit: boolean } | null = null;

  const started = () => document.documentElement.getAttribute('data-app') === 'started';

  /** Adds the app's scripts, in the page's order (the scripts first: the preloads only hint at what they import). */
  const start = () => {
    if (starting) return;
    starting = true;
    for (const move of MOVES) window.removeEventListener(move, start, true);
    const elements: HTMLElement[] = scripts.map((src) => {
      const script = document.createElement('script');
      script.type = 'module';
      script.src = src;
      // In insertion order, as parser-inserted module scripts run.
      script.async = false;
      // Should the app not load (a release replaced its files), the page goes on without it.
      script.onerror = letGo;
      return script;
    });
    for (const href of list.preloads ?? []) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = href;
      elements.push(link);
    }
    appendInSteps(elements, APPEND_BATCH, (step) => setTimeout(step, 0));
  };

  const hold = (event: Event) => {
    if (started()) return;
    const target = event.target instanceof Element ? event.target : null;
    const submit = event.type === 'submit';
    const element = submit ? target : target?.closest<HTMLElement>(NEEDS_APP);
    if (!(element instanceof HTMLElement) || (!submit && element.closest('a[href]'))) return;
    event.preventDefault();
    event.stopPropagation();
    held?.element.removeAttribute('data-boot-held');
    held = { element, submit };
    // Shown as taken (styles.css) until the app plays the tap again.
    element.setAttribute('data-boot-held', '');
    document.documentElement.setAttribute('data-boot', 'waiting');
    start();
  };

  function letGo(): void {
    document.removeEventListener('click', hold, true);
    document.removeEventListener('submit', hold, true);
    document.documentElement.removeAttribute('data-boot');
    document.documentElement.removeAttribute('data-boot-visitor');
    held?.element.removeAttribute('data-boot-held');
    held = null;
  }

  /** Once the app has the page: what was typed or chosen meanwhile is handed to it, then the held tap. */
  const takenOver = () => {
    const tap = held;
    letGo();
    copyTypedValues(document);
    if (!tap?.element.isConnected) return;
    if (tap.submit && tap.element instanceof HTMLFormElement) tap.element.requestSubmit();
    else tap.element.click();
  };

  document.addEventListener('click', hold, true);
  document.addEventListener('submit', hold, true);
  new MutationObserver((_records, observer) => {
    if (!started()) return;
    observer.disconnect();
    takenOver();
  }).observe(document.documentElement, { attributes: true, attributeFilter: ['data-app'] });

  // A signed-in visitor's page is their own (their likes, their buttons): the app draws it at once.
  if (storage.get(STORAGE_KEYS.token)) {
    // Not the Login/Register the page was drawn with (styles.css), while the app fetches their page.
    document.documentElement.setAttribute('data-boot-visitor', 'signed-in');
    afterFirstPaint(start);
    return;
  }
  for (const move of MOVES) window.addEventListener(move, start, { capture: true, passive: true });

  // Meanwhile, once the page has loaded and the browser is idle: the visit counts as the app's
  // refresh would have counted it, and the app's files are fetched (not run) so the first tap
  // finds them at hand, a few per idle moment (`PREFETCH_BATCH`).
  const idle = () =>
    whenIdle(() => {
      if (!starting) countVisit();
      const registerWorker = () => {
        if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
      };
      if (starting || saveData()) return registerWorker();
      // Stopped once the app's own scripts are on their way (`start`).
      appendInSteps(
        chunks.map(prefetchLink),
        PREFETCH_BATCH,
        (step) => whenIdle(() => (starting ? registerWorker() : step())),
        registerWorker,
      );
    });
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}

/** A prefetch of the app's file at `href` (fetched, not run). */
function prefetchLink(href: string): HTMLLinkElement {
  const link = document.createElement('link');
  link.rel = 'prefetch';
  link.href = href;
  link.crossOrigin = 'anonymous';
  return link;
}

/** A visitor who asked the browser to save data fetches the app only when they use it. */
function saveData(): boolean {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection;
  return connection?.saveData === true;
}

/** Asks for the server page's own answer again, which counts the visitor's view. */
function countVisit(): void {
  const answers = document.getElementById(PRERENDER_IDS.answers)?.textContent ?? '';
  let paths: string[] = [];
  try {
    paths = Object.keys(JSON.parse(answers || '{}') as object);
  } catch {
    return;
  }
  for (const path of paths.filter((p) => COUNTED_ANSWER.test(p))) {
    // As the app's request layer asks (lib/api-client.ts, which this script does not load): past any cache.
    const url = new URL(path, window.location.origin);
    url.searchParams.set('t', String(Date.now()));
    void fetch(url, { headers: { 'Cache-Control': 'no-cache', Accept: 'application/json' } }).catch(() => undefined);
  }
}

/**
 * Runs `task` once the page has painted its content (the browser's first-contentful-paint entry),
 * after the next frame where the browser reports no paints, at once in a tab opened in the
 * background (which paints nothing); the timer is a last resort should no paint be reported.
 */
function afterFirstPaint(task: () => void): void {
  if (document.visibilityState === 'hidden') return task();
  setTimeout(task, 3000);
  const types = (window.PerformanceObserver && PerformanceObserver.supportedEntryTypes) || [];
  if (types.includes('paint')) {
    new PerformanceObserver((entries, observer) => {
      if (entries.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      setTimeout(task, 0);
    }).observe({ type: 'paint', buffered: true });
  } else {
    requestAnimationFrame(() => setTimeout(task, 0));
  }
}

const list = readList();
if (list) boot(list);
