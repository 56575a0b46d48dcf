// The reach feature's public face: the dashboard shows these panels for the chosen server.
export { ApiKeysPanel } from './components/api-keys-panel';
export { BannerCodePanel } from './components/banner-code-panel';
export { VoteRewardsPanel } from './components/vote-rewards-panel';
