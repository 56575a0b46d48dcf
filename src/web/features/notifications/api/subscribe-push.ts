import { vapidKeySchema } from '../../../../shared/schemas/notifications';
import { apiRequest } from '../../../lib/api-client';

/** `GET /api/push/public-key` → the VAPID public key, base64url. */
export async function getPushPublicKey(): Promise<string> {
  return vapidKeySchema.parse(await apiRequest('/api/push/public-key')).publicKey;
}

/** `POST /api/push/subscribe {subscription}`: the PushSubscription's JSON, stored per user and device. */
export async function savePushSubscription(subscription: PushSubscriptionJSON): Promise<void> {
  await apiRequest('/api/push/subscribe', { method: 'POST', body: { subscription } });
}
