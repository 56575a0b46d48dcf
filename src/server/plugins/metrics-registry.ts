import { Counter, Registry } from 'prom-client';
import type { PollOutcome } from '../modules/game-status';
import { RequestTimings } from './request-timings';

/**
 * Request durations in seconds: from a hot read answered from memory (well under a millisecond)
 * to a slow upload, so both ends of the app show in a quantile.
 */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const POLL_OUTCOMES: readonly PollOutcome[] = ['answered', 'failed', 'moved'];

/**
 * The app's metrics registry and the counters services feed while they work. Scrape-time figures
 * (database, queue, caches) and the process metrics are added by `registerMetrics` only when
 * someone can read them; these counters cost an addition each and are always kept.
 */
export function appMetrics() {
  // One registry per app: several apps in one process (tests) never share or clash.
  const registry = new Registry();
  const requests = new RequestTimings(DURATION_BUCKETS, registry);
  const polls = new Counter({
    name: 'rp_game_polls_total',
    help: 'Game server polls by outcome: answered, failed (no answer, or its address refused) or moved (the name left the proven IP).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  for (const outcome of POLL_OUTCOMES) polls.inc({ outcome }, 0);
  const abandoned = new Counter({
    name: 'http_requests_abandoned_total',
    help: 'Requests whose client hung up before the whole answer was sent (nginx logs them as 499), by method and route pattern; not in http_request_duration_seconds.',
    labelNames: ['method', 'route'],
    registers: [registry],
  });
  const jobFailures = new Counter({
    name: 'rp_queue_job_failures_total',
    help: 'Job attempts whose worker failed, by queue (the queue retries them until their retry limit).',
    labelNames: ['queue'],
    registers: [registry],
  });

  return {
    registry,

    /** One answered request; `route` is a route's pattern, never a raw path. */
    observeRequest: (method: string, route: string, status: number, seconds: number): void =>
      requests.observe(method, route, status, seconds),

    /** A request whose client hung up before its answer was all sent; `route` is a route's pattern. */
    abandonedRequest: (method: string, route: string): void => abandoned.inc({ method, route }),

    /** One game poll's outcome (the poller's `onPolled`). */
    polled: (outcome: PollOutcome): void => polls.inc({ outcome }),

    /**
     * A queue's job handler that counts each failed attempt before the queue sees the error; the
     * queue's series starts at 0, so a rate over it is defined before its first failure.
     */
    countFailures<A extends unknown[]>(queue: string, handler: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
      jobFailures.inc({ queue }, 0);
      return async (...args: A) => {
        try {
          await handler(...args);
        } catch (err) {
          jobFailures.inc({ queue });
          throw err;
        }
      };
    },
  };
}

/** The app's metrics: its registry and what services count into it. */
export type AppMetrics = ReturnType<typeof appMetrics>;
