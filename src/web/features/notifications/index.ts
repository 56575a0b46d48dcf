// The notifications feature's public face: the inbox page and the app-wide push permission prompt.
export { InboxPage } from './components/inbox-page';
export { PushPermission } from './components/push-permission';
