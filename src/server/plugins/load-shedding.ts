import type { FastifyInstance } from 'fastify';
import underPressure from '@fastify/under-pressure';
import { MSG } from '../../shared/messages';

export interface LoadSheddingOptions {
  /** Event-loop delay (ms) within one sample that counts as lagging; far above anything normal. */
  maxEventLoopDelayMs: number;
  /** How many samples in a row must lag before requests are refused: one long pause is not overload. */
  laggingSamples: number;
  /** Length of one sample (ms). */
  sampleIntervalMs: number;
  retryAfterSeconds: number;
}

export const DEFAULT_LOAD_SHEDDING: LoadSheddingOptions = {
  maxEventLoopDelayMs: 1000,
  laggingSamples: 3,
  sampleIntervalMs: 1000,
  retryAfterSeconds: 5,
};

/**
 * When the event loop lags badly for several seconds in a row, new requests get 503 with
 * Retry-After at once instead of queueing behind work that is already late. A single long pause
 * (a start-up, a big synchronous job) does not count. `/api/health` still answers, so an
 * orchestrator can tell "busy" from "dead".
 */
export async function registerLoadShedding(app: FastifyInstance, options: LoadSheddingOptions = DEFAULT_LOAD_SHEDDING): Promise<void> {
  let lagging = 0;
  let lastCheck = performance.now();
  let lastWarning = 0;

  await app.register(underPressure, {
    healthCheckInterval: options.sampleIntervalMs,
    // Called on a timer once per sample: how late the timer fired is how far the event loop lags.
    healthCheck: async () => {
      const now = performance.now();
      const lateMs = now - lastCheck - options.sampleIntervalMs;
      lastCheck = now;
      lagging = lateMs > options.maxEventLoopDelayMs ? lagging + 1 : 0;
      return lagging < options.laggingSamples;
    },
    retryAfter: options.retryAfterSeconds,
    pressureHandler: (request, reply, type) => {
      if (request.url === '/api/health') return undefined;
      // One line a minute at most: a flood of identical warnings would add to the lag.
      if (Date.now() - lastWarning > 60_000) {
        lastWarning = Date.now();
        request.log.warn({ type, laggingSamples: lagging }, 'event loop lagging: shedding load with 503');
      }
      // Sent here; Fastify then skips the rest of the request, as for any hook that answered.
      void reply.code(503).header('retry-after', String(options.retryAfterSeconds)).send({ error: MSG.busy });
      return undefined;
    },
  });
}
