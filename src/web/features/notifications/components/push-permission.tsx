import { usePushAutoAsk } from '../hooks/use-push-permission';

/** Mounted once at the app root: asks for notification permission once a user is known (spec §4). */
export function PushPermission() {
  usePushAutoAsk();
  return null;
}
