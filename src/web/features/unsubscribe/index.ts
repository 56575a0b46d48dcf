// The unsubscribe feature's public face: what the router mounts.
export { UnsubscribePage } from './components/unsubscribe-page';
