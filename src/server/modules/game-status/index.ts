/** The game status module's public face: live status polled from the game, and its history. */
export { gameStatusRoutes } from './game-status.routes';
export { gameStatusService, type GameStatusService } from './game-status.service';
export { gameStatusRepository, type GameStatusRepository } from './game-status.repository';
export { DEFAULT_POLL_SETTINGS, type GameQuery, type PollOutcome, type PollSettings } from './game-poller.service';
export { gameClaimsRepository, type GameClaimsRepository, type ClaimRow } from './game-claims.repository';
