// The landing page's only script (see docs/decisions/037-landing-page-without-the-app.md): the
// HTML is the React landing page rendered at build time; this wires up what moves on it without
// loading React, the router or zod. A visitor who is signed in, or runs the installed app, gets the
// whole app instead.
import { DEFAULT_LOCALE, LOCALE_PARAM, isLocale, type Locale } from '../../../../shared/i18n/locales';
import { UI_TIMING } from '../../../../shared/limits';
import { MENU_ICON_PATH } from '../../../components/menu-icon';
import { rememberLocale } from '../../../i18n/locale-cookie';
import { canInstall, captureInstallPrompt, onInstallChange, promptInstall } from '../../../lib/install-prompt';
import { isStandalone } from '../../../lib/platform';
import { storage, STORAGE_KEYS } from '../../../lib/storage';
import { animateNumber } from '../animate-number';
import { dismissIosInstallHint, installHint, installHintAttribute, wantsIosInstallHint } from '../install-hint';
import { isPlayerCount, lastSeenPlayerCount, rememberPlayerCount } from '../player-count-memory';
import { ISLAND_TEXT, ISLAND_TEXTS_ID } from './texts';
import '../../../styles.css';

function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the landing page has no #${id}`);
  return element as T;
}

/** A copy of what a `<template>` of the pre-rendered page holds. */
function fromTemplate(id: string): HTMLElement {
  const first = byId<HTMLTemplateElement>(id).content.firstElementChild;
  if (!first) throw new Error(`the template #${id} is empty`);
  return first.cloneNode(true) as HTMLElement;
}

/**
 * A text the page was rendered with, in its language (components/island-texts.tsx): this script
 * carries no catalog. Empty if the page has none.
 */
function pageText(attribute: string): string {
  return document.getElementById(ISLAND_TEXTS_ID)?.getAttribute(attribute) ?? '';
}

/** The page's language, as it was rendered: numbers are written in it. */
function pageLocale(): Locale {
  const lang = document.documentElement.lang;
  return isLocale(lang) ? lang : DEFAULT_LOCALE;
}

/** The phone menu: the same open/close as the app's navigation bar. */
function wireMenu(): void {
  const button = document.querySelector<HTMLButtonElement>('button[aria-controls="main-menu"]');
  const menu = document.getElementById('main-menu');
  if (!button || !menu) return;
  const label = button.querySelector('.sr-only');
  // The label it was rendered with is the closed menu's ("Open menu"); the open one's comes from the page's texts.
  const openLabel = label?.textContent ?? '';
  const closeLabel = pageText(ISLAND_TEXT.menuClose) || openLabel;
  button.addEventListener('click', () => {
    const open = button.getAttribute('aria-expanded') !== 'true';
    button.setAttribute('aria-expanded', String(open));
    menu.classList.toggle('hidden', !open);
    menu.classList.toggle('flex', open);
    if (label) label.textContent = open ? closeLabel : openLabel;
    button.querySelector('path')?.setAttribute('d', open ? MENU_ICON_PATH.open : MENU_ICON_PATH.closed);
  });
}

/** Install App: enabled once the browser offers installation; otherwise the line under it says how, unless the iPhone banner does. */
function wireInstall(): void {
  const button = byId<HTMLButtonElement>('install-app');
  const hint = byId<HTMLElement>('install-hint');
  const hintParent = hint.parentElement;
  let bannerShown = false;

  const sync = () => {
    const can = canInstall();
    button.disabled = !can;
    button.title = pageText(can ? ISLAND_TEXT.installReady : ISLAND_TEXT.installWaiting);
    if (!can && !bannerShown) {
      hint.textContent = pageText(installHintAttribute(installHint()));
      if (!hint.isConnected) hintParent?.append(hint);
      button.setAttribute('aria-describedby', 'install-hint');
    } else {
      hint.remove();
      button.removeAttribute('aria-describedby');
    }
  };

  if (wantsIosInstallHint()) {
    const banner = fromTemplate('landing-ios-hint');
    byId('landing-hero').before(banner);
    bannerShown = true;
    banner.querySelector('button')?.addEventListener('click', () => {
      dismissIosInstallHint();
      banner.remove();
      bannerShown = false;
      sync();
    });
  }
  button.addEventListener('click', () => void promptInstall());
  onInstallChange(sync);
  sync();
}

/** The big number: from what this device saw last to the live count, then kept current by the socket. */
function wirePlayerCount(): void {
  const element = document.querySelector<HTMLElement>('[data-testid="player-count"]');
  if (!element) return;
  const format = new Intl.NumberFormat(pageLocale());
  let shown = lastSeenPlayerCount();
  let stop = () => {};
  let unavailable: HTMLElement | null = null;
  element.textContent = format.format(shown);
  const show = (count: number) => {
    unavailable?.remove();
    unavailable = null;
    rememberPlayerCount(count);
    stop();
    stop = animateNumber(shown, count, UI_TIMING.countAnimationMs, (value) => {
      shown = value;
      element.textContent = format.format(value);
    });
  };

  const fetchCount = async () => {
    const response = await fetch('/api/player-count', { headers: { accept: 'application/json' } });
    const body = (response.ok ? await response.json() : null) as { count?: unknown } | null;
    if (!isPlayerCount(body?.count)) throw new Error(`player count: ${response.status}`);
    return body.count;
  };
  // Asked twice before saying so, as the app's queries retry; a count from the socket clears it.
  fetchCount()
    .catch(() => new Promise<number>((resolve) => setTimeout(() => resolve(fetchCount()), 1000)))
    .then(show)
    .catch(() => {
      unavailable = fromTemplate('landing-count-error');
      element.parentElement?.append(unavailable);
    });

  // The socket client is not in the HTML: it loads once this script runs, off the first paint's path.
  void import('../../../lib/socket').then(({ acquireSocket }) => {
    acquireSocket().socket.on('playerCountUpdated', (count: number) => {
      if (isPlayerCount(count)) show(count);
    });
  });
}

/**
 * The footer's language switcher: without the app, the choice is kept on the device (a cookie)
 * and the page asked for again, which the server then sends in that language. A language pinned
 * in the address (`?lang=`) would win over the cookie, so it is dropped.
 */
function wireLanguage(): void {
  const select = document.querySelector<HTMLSelectElement>('select[data-testid="language-switcher"]');
  if (!select) return;
  select.addEventListener('change', () => {
    const next = select.value;
    if (!isLocale(next)) return;
    rememberLocale(next);
    const url = new URL(window.location.href);
    if (url.searchParams.has(LOCALE_PARAM)) {
      url.searchParams.delete(LOCALE_PARAM);
      window.location.replace(url);
    } else {
      window.location.reload();
    }
  });
}

/** The page on its own: everything that moves, without the app. */
function wirePage(): void {
  wireMenu();
  wireLanguage();
  wireInstall();
  wirePlayerCount();
  if ('serviceWorker' in navigator && import.meta.env.PROD) {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
      // Offline use and installation wait for the next visit; the page itself works.
    });
  }
}

// From the start, whichever way the page goes: the browser may offer installation before the app has loaded.
captureInstallPrompt();
if (isStandalone()) {
  location.replace('/home');
} else if (storage.get(STORAGE_KEYS.token)) {
  // Signed in: the navigation shows this user's pages, so the app renders the page over this one.
  // Should its scripts fail to load (a release replaced them), the page still works on its own.
  import('../../../main').catch(wirePage);
} else {
  wirePage();
}
