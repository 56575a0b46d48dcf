import { useCallback, useEffect, useState } from 'react';
import { useSession } from '../../../lib/session';
import { storage, STORAGE_KEYS } from '../../../lib/storage';
import { getPushPublicKey } from '../api/get-push-public-key';
import { savePushSubscription } from '../api/subscribe-push';

export type PushState = 'unsupported' | NotificationPermission;

function supported(): boolean {
  return 'Notification' in window && 'serviceWorker' in navigator && 'PushManager' in window;
}

function currentState(): PushState {
  return supported() ? Notification.permission : 'unsupported';
}

/** base64url (the VAPID key) → the bytes PushManager wants. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = (base64url + '='.repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/**
 * Subscribes this device through the service worker and sends the subscription for `userId`,
 * unless that exact one was sent already (a reload sends nothing).
 */
async function subscribe(userId: string): Promise<void> {
  const registration = await navigator.serviceWorker.ready;
  const existing = await registration.pushManager.getSubscription();
  const subscription =
    existing ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(await getPushPublicKey()) }));
  const sent = `${userId} ${subscription.endpoint}`;
  if (storage.get(STORAGE_KEYS.pushSent) === sent) return;
  await savePushSubscription(subscription.toJSON());
  storage.set(STORAGE_KEYS.pushSent, sent);
}

function subscribeQuietly(userId: string): void {
  // Push is a bonus: a browser without a reachable push service still has the inbox.
  subscribe(userId).catch((error: unknown) => console.warn('push subscription failed', error));
}

/**
 * Once a user is known, ask for notification permission once (remembered in
 * localStorage) and register the push subscription. Mounted once, at the app root.
 */
export function usePushAutoAsk(): void {
  const userId = useSession()?.user.id ?? null;
  useEffect(() => {
    if (!userId || !supported()) return;
    if (Notification.permission === 'granted') {
      subscribeQuietly(userId);
      return;
    }
    if (Notification.permission !== 'default' || storage.get(STORAGE_KEYS.pushAsked)) return;
    storage.set(STORAGE_KEYS.pushAsked, '1');
    void Notification.requestPermission().then((permission) => {
      if (permission === 'granted') subscribeQuietly(userId);
    });
  }, [userId]);
}

/** The notification permission of this browser and `enable`, for an explicit "turn on" button. */
export function usePushStatus(): { state: PushState; enable: () => Promise<void> } {
  const userId = useSession()?.user.id ?? null;
  const [state, setState] = useState<PushState>(currentState);
  const enable = useCallback(async () => {
    if (!supported()) return;
    const permission = await Notification.requestPermission();
    setState(permission);
    if (permission === 'granted' && userId) subscribeQuietly(userId);
  }, [userId]);
  return { state, enable };
}
