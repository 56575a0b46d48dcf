// Both answer false where there is no window (the landing page is rendered ahead of time at build, in Node).

/** True when the app runs as an installed PWA (Android/desktop display mode, or iOS home screen). */
export function isStandalone(): boolean {
  if (typeof window === 'undefined') return false;
  const iosStandalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return iosStandalone || window.matchMedia?.('(display-mode: standalone)').matches === true;
}

/** Safari on iPhone or iPad, the only browser there that can add a web app to the home screen. */
export function isIosSafari(): boolean {
  if (typeof window === 'undefined') return false;
  const ua = navigator.userAgent;
  const iDevice = /iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1);
  const otherBrowser = /CriOS|FxiOS|EdgiOS|OPiOS|GSA\//.test(ua);
  return iDevice && /Safari/.test(ua) && !otherBrowser;
}
