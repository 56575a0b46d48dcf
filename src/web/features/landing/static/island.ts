// The landing page's only script (see docs/decisions/037-landing-page-without-the-app.md): the
// HTML is the React landing page rendered at build time; this wires up what moves on it without
// loading React, the router or zod. A visitor who is signed in, or runs the installed app, gets the
// whole app instead.
import { UI_TIMING } from '../../../../shared/limits';
import { MENU_ICON_PATH } from '../../../components/menu-icon';
import { canInstall, captureInstallPrompt, onInstallChange, promptInstall } from '../../../lib/install-prompt';
import { isStandalone } from '../../../lib/platform';
import { storage, STORAGE_KEYS } from '../../../lib/storage';
import { animateNumber } from '../animate-number';
import { dismissIosInstallHint, installHint, wantsIosInstallHint } from '../install-hint';
import { isPlayerCount, lastSeenPlayerCount, rememberPlayerCount } from '../player-count-memory';
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

/** The phone menu: the same open/close as the app's navigation bar. */
function wireMenu(): void {
  const button = document.querySelector<HTMLButtonElement>('button[aria-controls="main-menu"]');
  const menu = document.getElementById('main-menu');
  if (!button || !menu) return;
  button.addEventListener('click', () => {
    const open = button.getAttribute('aria-expanded') !== 'true';
    button.setAttribute('aria-expanded', String(open));
    menu.classList.toggle('hidden', !open);
    menu.classList.toggle('flex', open);
    const label = button.querySelector('.sr-only');
    if (label) label.textContent = open ? 'Close menu' : 'Open menu';
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
    button.title = can ? 'Install RP Servers on this device' : 'Your browser has not offered installation yet';
    if (!can && !bannerShown) {
      hint.textContent = installHint();
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
  const format = new Intl.NumberFormat();
  let shown = lastSeenPlayerCount();
  let stop = () => {};
  element.textContent = format.format(shown);
  const show = (count: number) => {
    rememberPlayerCount(count);
    stop();
    stop = animateNumber(shown, count, UI_TIMING.countAnimationMs, (value) => {
      shown = value;
      element.textContent = format.format(value);
    });
  };

  fetch('/api/player-count', { headers: { accept: 'application/json' } })
    .then(async (response) => {
      const body = (response.ok ? await response.json() : null) as { count?: unknown } | null;
      if (!isPlayerCount(body?.count)) throw new Error(`player count: ${response.status}`);
      show(body.count);
    })
    .catch(() => element.parentElement?.append(fromTemplate('landing-count-error')));

  // The socket client loads after the first paint, as in the app.
  void import('../../../lib/socket').then(({ acquireSocket }) => {
    acquireSocket().socket.on('playerCountUpdated', (count: number) => {
      if (isPlayerCount(count)) show(count);
    });
  });
}

if (isStandalone()) {
  location.replace('/home');
} else if (storage.get(STORAGE_KEYS.token)) {
  // Signed in: the navigation shows this user's pages, so the app renders the page over this one.
  void import('../../../main');
} else {
  captureInstallPrompt();
  wireMenu();
  wireInstall();
  wirePlayerCount();
  if ('serviceWorker' in navigator && import.meta.env.PROD) void navigator.serviceWorker.register('/sw.js', { scope: '/' });
}
