import { useState } from 'react';
import { dismissIosInstallHint, wantsIosInstallHint } from '../install-hint';

/** Whether to show the "Add to Home Screen" hint (Safari on iOS, not installed, not dismissed before). */
export function useIosInstallHint(): { visible: boolean; dismiss: () => void } {
  const [visible, setVisible] = useState(wantsIosInstallHint);
  return {
    visible,
    dismiss: () => {
      dismissIosInstallHint();
      setVisible(false);
    },
  };
}
