import { apiRequest } from '../../../lib/api-client';

/** `POST /api/push/subscribe {subscription}`: the PushSubscription's JSON, stored per user and device. */
export async function savePushSubscription(subscription: PushSubscriptionJSON): Promise<void> {
  await apiRequest('/api/push/subscribe', { method: 'POST', body: { subscription } });
}
