// The landing feature's public face: what the router mounts.
export { LandingPage } from './components/landing-page';
