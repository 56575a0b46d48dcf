/** localStorage that never throws (private mode, quota, disabled storage). */
export const storage = {
  get(key: string): string | null {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string): void {
    try {
      window.localStorage.setItem(key, value);
    } catch {
      // Storage is best effort: the app still works for this visit.
    }
  },
  remove(key: string): void {
    try {
      window.localStorage.removeItem(key);
    } catch {
      // see set()
    }
  },
};

/** Every localStorage key of the app, in one place. */
export const STORAGE_KEYS = {
  token: 'token',
  user: 'user',
  lastPlayerCount: 'rp.lastPlayerCount',
  iosHintDismissed: 'rp.iosHintDismissed',
  /** Set once the browser was asked for notification permission (the browser is asked only once). */
  pushAsked: 'rp.pushAsked',
  /** `userId endpoint` of the last subscription sent, so a reload does not send it again. */
  pushSent: 'rp.pushSent',
  /** How /search shows results on this device: `cards` or `list` (compact rows). */
  searchView: 'rp.searchView',
} as const;
