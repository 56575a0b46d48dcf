/** The follows module: players follow servers and hear when they come back online or announce an event. */
export { followsRepository, type FollowsRepository } from './follows.repository';
export { followsService, EVENTS_PER_DAY, type FollowsService } from './follows.service';
export { followsRoutes } from './follows.routes';
