import { useSyncExternalStore } from 'react';

const subscribe = () => () => undefined;

/**
 * False on the server and while the app hydrates a page the server rendered, true from then on
 * (and at once in a page the app renders itself): what only the device knows, such as who is
 * signed in, is drawn after hydration so the first render matches the server's markup.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
