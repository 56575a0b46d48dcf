// The game-status feature's public face: the server page and the dashboard show these panels.
export { LiveStatusPanel } from './components/live-status-panel';
export { PlayerHistory } from './components/player-history';
export { usePlayerHistory } from './api/get-player-history';
