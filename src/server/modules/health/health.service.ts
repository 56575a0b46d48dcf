import type { HealthRepository } from './health.repository';

/** Liveness and readiness for load balancers and orchestrators. */
export function healthService({ repository, draining = () => false }: { repository: HealthRepository; draining?: () => boolean }) {
  return {
    /** Ready means the database can be reached too, not only the process, and the process is not shutting down. */
    isReady: async (): Promise<boolean> => !draining() && (await repository.ping()),
  };
}

/** Liveness and readiness. */
export type HealthService = ReturnType<typeof healthService>;
