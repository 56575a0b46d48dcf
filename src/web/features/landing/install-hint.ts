import type { MessageId } from '../../i18n/catalogs/index';
import { isIosSafari, isStandalone } from '../../lib/platform';
import { storage, STORAGE_KEYS } from '../../lib/storage';

// Plain functions, no React: the React landing page and the pre-rendered page's script share them.

/** Which way to install applies where the browser has not offered it (yet). */
export type InstallHintKind = 'ios' | 'firefox' | 'safariMac' | 'other';

/**
 * Each hint's message. The React page translates it; the pre-rendered page carries every one in
 * its markup (see `IslandTexts`), so its script shows the right one without the catalogs.
 */
export const INSTALL_HINT_MESSAGES: Readonly<Record<InstallHintKind, MessageId>> = {
  ios: 'landing.installHint.ios',
  firefox: 'landing.installHint.firefox',
  safariMac: 'landing.installHint.safariMac',
  other: 'landing.installHint.other',
};

/** How to install where the browser has not offered it (yet): never a silent grey button. */
export function installHint(): InstallHintKind {
  if (isIosSafari()) return 'ios';
  const ua = typeof navigator === 'undefined' ? '' : navigator.userAgent;
  if (/Firefox\//.test(ua)) return 'firefox';
  if (/Safari\//.test(ua) && !/Chrome|Chromium|Edg\//.test(ua)) return 'safariMac';
  return 'other';
}

/** Whether to show the "Add to Home Screen" banner: Safari on iOS, not installed, not dismissed before. */
export function wantsIosInstallHint(): boolean {
  return isIosSafari() && !isStandalone() && storage.get(STORAGE_KEYS.iosHintDismissed) !== '1';
}

/** The banner is dismissed for good on this device. */
export function dismissIosInstallHint(): void {
  storage.set(STORAGE_KEYS.iosHintDismissed, '1');
}

/** The attribute of the pre-rendered page's texts (`IslandTexts`) that holds a hint: `data-hint-safari-mac`. */
export function installHintAttribute(kind: InstallHintKind): string {
  return `data-hint-${kind.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}
