// The players feature's public face: what the router mounts.
export { ProfilePage } from './components/profile-page';
