import type { HealthRepository } from './health.repository';

/** Liveness and readiness for load balancers and orchestrators. */
export function healthService({ repository }: { repository: HealthRepository }) {
  return {
    /** Ready means the database can be reached too, not only the process. */
    isReady: (): Promise<boolean> => repository.ping(),
  };
}

/** Liveness and readiness. */
export type HealthService = ReturnType<typeof healthService>;
