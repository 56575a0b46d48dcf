import { useSyncExternalStore } from 'react';

/**
 * Whether a write was refused with the maintenance message. Non-admins cannot read
 * the settings, so the request layer notes it here and the banner shows until a write succeeds.
 */
let refused = false;
const listeners = new Set<() => void>();

function set(value: boolean): void {
  if (refused === value) return;
  refused = value;
  for (const listener of listeners) listener();
}

export function reportMaintenance(): void {
  set(true);
}

export function clearMaintenance(): void {
  set(false);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const read = () => refused;

/** True after a write answered 503 with the maintenance message, until a write succeeds. */
export function useMaintenanceRefused(): boolean {
  return useSyncExternalStore(subscribe, read, read);
}
