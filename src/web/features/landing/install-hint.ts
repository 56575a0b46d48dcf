import { isIosSafari, isStandalone } from '../../lib/platform';
import { storage, STORAGE_KEYS } from '../../lib/storage';

// Plain functions, no React: the React landing page and the pre-rendered page's script share them.

/** How to install where the browser has not offered it (yet): never a silent grey button. */
export function installHint(): string {
  if (isIosSafari()) return 'On iPhone or iPad: tap Share, then “Add to Home Screen”.';
  const ua = typeof navigator === 'undefined' ? '' : navigator.userAgent;
  if (/Firefox\//.test(ua))
    return 'Firefox cannot install web apps: open this page in Chrome, Edge or Safari to install, or keep using it here.';
  if (/Safari\//.test(ua) && !/Chrome|Chromium|Edg\//.test(ua)) return 'In Safari on a Mac: File → “Add to Dock”.';
  return 'Not offered by your browser yet: in Chrome or Edge, use the install icon at the right of the address bar, or the menu’s “Install RP Servers”.';
}

/** Whether to show the "Add to Home Screen" banner: Safari on iOS, not installed, not dismissed before. */
export function wantsIosInstallHint(): boolean {
  return isIosSafari() && !isStandalone() && storage.get(STORAGE_KEYS.iosHintDismissed) !== '1';
}

/** The banner is dismissed for good on this device. */
export function dismissIosInstallHint(): void {
  storage.set(STORAGE_KEYS.iosHintDismissed, '1');
}
