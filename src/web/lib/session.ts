import { useSyncExternalStore } from 'react';
import { userSchema, type User } from '../../shared/schemas/auth';
import { storage, STORAGE_KEYS } from './storage';

/** The signed-in user and their short-lived access token, kept in localStorage (the refresh token is an httpOnly cookie). */
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

/**
 * Forgets token and user (logout, or a session the server no longer knows). The server is told
 * too, best effort: it ends this login session and drops the httpOnly refresh cookie, which the
 * page cannot touch itself.
 */
export function clearSession(): void {
  const token = current?.token ?? storage.get(STORAGE_KEYS.token);
  storage.remove(STORAGE_KEYS.token);
  storage.remove(STORAGE_KEYS.user);
  current = null;
  emit();
  if (token) endServerSession(token);
}

function endServerSession(token: string): void {
  const url = new URL('/api/auth/logout', window.location.origin);
  url.searchParams.set('t', String(Date.now()));
  // keepalive: the request outlives the navigation to /login that usually follows.
  void fetch(url, {
    method: 'POST',
    keepalive: true,
    headers: { 'Cache-Control': 'no-cache', Accept: 'application/json', Authorization: `Bearer ${token}` },
  }).catch(() => undefined);
}

/** Re-reads the stored session: another tab may have renewed the token meanwhile. */
export function reloadSession(): Session | null {
  const stored = read();
  if (stored?.token !== current?.token) {
    current = stored;
    emit();
  }
  return current;
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
