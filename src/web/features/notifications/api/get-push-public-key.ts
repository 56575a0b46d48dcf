import { vapidKeySchema } from '../../../../shared/schemas/notifications';
import { apiRequest } from '../../../lib/api-client';

/** `GET /api/push/public-key` → the VAPID public key, base64url. */
export async function getPushPublicKey(): Promise<string> {
  return vapidKeySchema.parse(await apiRequest('/api/push/public-key')).publicKey;
}
