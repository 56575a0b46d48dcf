/** The player count module's public face: the live total, its route and its socket greeting. */
export { playerCountRoutes } from './player-count.routes';
export { playerCountService, type PlayerCountService } from './player-count.service';
export { playerCountRepository, type PlayerCountRepository } from './player-count.repository';
export { sendCountOnConnect } from './player-count.socket';
