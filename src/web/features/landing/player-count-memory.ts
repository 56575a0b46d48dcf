import { storage, STORAGE_KEYS } from '../../lib/storage';

/** The last count this device saw, so the number starts there rather than at a made-up value. */
export function lastSeenPlayerCount(): number {
  const n = Number(storage.get(STORAGE_KEYS.lastPlayerCount));
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : 0;
}

export function rememberPlayerCount(count: number): void {
  storage.set(STORAGE_KEYS.lastPlayerCount, String(count));
}

/** A count the socket sent, if it is one. */
export function isPlayerCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
