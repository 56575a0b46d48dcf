/** The owner statistics module. */
export { statsRepository, type StatsRepository } from './stats.repository';
export { statsService, type StatsService } from './stats.service';
export { statsRoutes } from './stats.routes';
