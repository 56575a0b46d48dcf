// The notifications feature's public face: the app-wide push permission prompt (the inbox page loads from its own file).
export { PushPermission } from './components/push-permission';
