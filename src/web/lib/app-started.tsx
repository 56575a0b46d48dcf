import { useEffect } from 'react';

let started = false;
let whenStarted: (() => void) | undefined;

/** What to do once the app has its first page on screen (the page's answers refreshed, see app/rendered-answers.ts). */
export function onAppStarted(callback: () => void): void {
  whenStarted = callback;
}

/**
 * Marks the page as the app's (`html[data-app="started"]`) once the first page has committed with
 * its content. Drawn beside the page inside the layout's Suspense boundary: React hydrates a
 * server-rendered page's boundary after the frame around it, and until then the page's buttons and
 * fields are still only the server's markup. The boot script of a rendered page hands over held
 * taps and typed text at this mark (src/web/ssr/boot.ts); browser tests wait for it before they click.
 */
export function AppStarted() {
  useEffect(() => {
    if (started) return;
    started = true;
    document.documentElement.setAttribute('data-app', 'started');
    whenStarted?.();
  }, []);
  return null;
}
