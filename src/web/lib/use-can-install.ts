import { useSyncExternalStore } from 'react';
import { canInstall, onInstallChange } from './install-prompt';

/** Whether the Install App button can do something now (false while rendering ahead of time). */
export function useCanInstall(): boolean {
  return useSyncExternalStore(onInstallChange, canInstall, () => false);
}
