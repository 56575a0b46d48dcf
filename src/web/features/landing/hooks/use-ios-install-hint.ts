import { useState } from 'react';
import { isIosSafari, isStandalone } from '../../../lib/platform';
import { storage, STORAGE_KEYS } from '../../../lib/storage';

/** Whether to show the "Add to Home Screen" hint (Safari on iOS, not installed, not dismissed before). */
export function useIosInstallHint(): { visible: boolean; dismiss: () => void } {
  const [visible, setVisible] = useState(() => isIosSafari() && !isStandalone() && storage.get(STORAGE_KEYS.iosHintDismissed) !== '1');
  return {
    visible,
    dismiss: () => {
      storage.set(STORAGE_KEYS.iosHintDismissed, '1');
      setVisible(false);
    },
  };
}
