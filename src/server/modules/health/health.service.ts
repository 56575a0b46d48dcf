import type { HealthRepository } from './health.repository';

/** Liveness and readiness for load balancers and orchestrators. */
export function healthService({
  repository,
  draining = () => false,
  warm = () => true,
}: {
  repository: HealthRepository;
  draining?: () => boolean;
  /** Whether what the hot pages are answered from is loaded (the search index): until then they are slow. */
  warm?: () => boolean;
}) {
  return {
    /**
     * Ready means the database can be reached too, not only the process; what lists are answered
     * from is loaded; and the process is not shutting down.
     */
    isReady: async (): Promise<boolean> => !draining() && (await repository.ping()) && warm(),
  };
}

/** Liveness and readiness. */
export type HealthService = ReturnType<typeof healthService>;
