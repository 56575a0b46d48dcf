import { useState } from 'react';
import { storage, STORAGE_KEYS } from '../../../lib/storage';

export type ResultsView = 'cards' | 'list';

/** Cards or compact rows for search results, remembered on this device. */
export function useResultsView(): [ResultsView, (view: ResultsView) => void] {
  const [view, setView] = useState<ResultsView>(() => (storage.get(STORAGE_KEYS.searchView) === 'list' ? 'list' : 'cards'));
  const choose = (next: ResultsView) => {
    storage.set(STORAGE_KEYS.searchView, next);
    setView(next);
  };
  return [view, choose];
}
