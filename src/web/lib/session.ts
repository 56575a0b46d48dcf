import { useSyncExternalStore } from 'react';
import { userSchema, type User } from '../../shared/schemas/auth';
import { storage, STORAGE_KEYS } from './storage';

/** The signed-in user and their token, kept in localStorage (spec §4). */
export interface Session {
  token: string;
  user: User;
}

const listeners = new Set<() => void>();
let current: Session | null = read();

function read(): Session | null {
  const token = storage.get(STORAGE_KEYS.token);
  const raw = storage.get(STORAGE_KEYS.user);
  if (!token || !raw) return null;
  try {
    const user = userSchema.safeParse(JSON.parse(raw));
    return user.success ? { token, user: user.data } : null;
  } catch {
    return null;
  }
}

function emit(): void {
  for (const listener of listeners) listener();
}

/** The bearer token of the current session, for the request layer. */
export function getToken(): string | null {
  return current?.token ?? null;
}

export function getSession(): Session | null {
  return current;
}

/** Stores both token and user (login, register). */
export function setSession(session: Session): void {
  storage.set(STORAGE_KEYS.token, session.token);
  storage.set(STORAGE_KEYS.user, JSON.stringify(session.user));
  current = session;
  emit();
}

/** Replaces the stored user after the server sent a fresher copy; no-op when logged out. */
export function updateSessionUser(user: User): void {
  if (!current) return;
  storage.set(STORAGE_KEYS.user, JSON.stringify(user));
  current = { ...current, user };
  emit();
}

/** Forgets token and user (logout, or a 401 on the user fetch). */
export function clearSession(): void {
  storage.remove(STORAGE_KEYS.token);
  storage.remove(STORAGE_KEYS.user);
  current = null;
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab logging in or out changes the same storage.
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEYS.token || event.key === STORAGE_KEYS.user || event.key === null) {
      current = read();
      listener();
    }
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The current session, re-rendering on login, logout and user refresh. */
export function useSession(): Session | null {
  return useSyncExternalStore(subscribe, getSession, getSession);
}
