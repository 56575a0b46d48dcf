/** The health module: liveness and readiness probes. */
export { healthRepository, type HealthRepository } from './health.repository';
export { healthService, type HealthService } from './health.service';
export { healthRoutes } from './health.routes';
