import { usePushAutoAsk } from '../hooks/use-push-permission';

/** Mounted once at the app root: asks for notification permission once a user is known. */
export function PushPermission() {
  usePushAutoAsk();
  return null;
}
