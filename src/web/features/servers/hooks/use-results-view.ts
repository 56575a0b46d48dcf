import { useCallback, useSyncExternalStore } from 'react';
import { storage, STORAGE_KEYS } from '../../../lib/storage';

export type ResultsView = 'cards' | 'list';

const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
/** This visit's choice, should the device's storage refuse it. */
let chosen: ResultsView | null = null;
const current = (): ResultsView => chosen ?? (storage.get(STORAGE_KEYS.searchView) === 'list' ? 'list' : 'cards');

/**
 * Cards or compact rows for search results, remembered on this device. The server draws `/search`
 * with cards (it cannot know the device's choice), and the app hydrates that page with cards too;
 * a device that chose rows gets them right after, so hydration finds the server's markup.
 */
export function useResultsView(): [ResultsView, (view: ResultsView) => void] {
  const view = useSyncExternalStore<ResultsView>(subscribe, current, () => 'cards');
  const choose = useCallback((next: ResultsView) => {
    chosen = next;
    storage.set(STORAGE_KEYS.searchView, next);
    for (const listener of listeners) listener();
  }, []);
  return [view, choose];
}
