// The stats feature's public face: what the router mounts.
export { StatsPage } from './components/stats-page';
