/** The health module: liveness and readiness probes, and the figures a metrics scrape reads from the database. */
export { healthRepository, type HealthRepository } from './health.repository';
export { healthService, type HealthService } from './health.service';
export { healthRoutes } from './health.routes';
export { metricsRepository, type MetricsRepository, type HeldCounts, type PollBacklog } from './metrics.repository';
