import { build } from './app';
import { ConfigError, loadConfig } from './config';
import { applyStartSettings } from './lib/start-settings';
import { strayRejectionHandler } from './lib/stray-rejections';

/**
 * Starts the app and listens. On SIGTERM (a deploy, a rolling restart) it drains: `/api/ready`
 * answers 503 and every answer closes its connection for `SHUTDOWN_DRAIN_MS` while requests are
 * still served, so the load balancer moves traffic away (a proxy that sends `X-Next-Upstream:
 * http_503`, nginx without health checks, gets 503 for its reads instead: it answers them from
 * another instance and stops sending here); then it stops accepting, finishes every request and
 * queued write, closes sockets, Redis, the queue and the database, and exits, all within
 * `SHUTDOWN_TIMEOUT_MS`. SIGINT (Ctrl-C) skips the drain. `npm run test:ops` proves it behind nginx.
 * It listens once its search index is loaded and every listed server's card is read, or after `STARTUP_WAIT_MS`.
 */
async function main(): Promise<void> {
  // Before the app allocates: the heap's growth acts from the next full collection on.
  const settings = applyStartSettings();
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const app = await build(config);
  if (settings.set.length > 0) app.log.info(`set ${settings.set.join(' ')} itself (not on node's command line)`);
  if (settings.missing.length > 0) {
    app.log.warn(
      `started without ${settings.missing.join(' ')}: resident memory runs 20-40 MB higher than under npm start; pass the flags on node's command line and the variables in its environment (README, Production)`,
    );
  }
  process.on('unhandledRejection', strayRejectionHandler(app.log));
  // Lists, search and ranks are answered from the search index, with the cards held in memory: a
  // balancer or proxy that sends traffic as soon as the port opens would otherwise get the slow SQL
  // lists of the index's loading seconds, then answers that share the thread with the cards' reads
  // (docs/decisions/064-ready-once-the-index-is-loaded.md, 072-cards-before-listening.md).
  const warm = await app.ctx.discovery.whenWarm(config.startupWaitMs);
  if (warm === 'index') {
    app.log.warn(
      `the search index is not loaded (its load failed or took over ${config.startupWaitMs} ms): listening anyway, /api/ready says 503 until it is`,
    );
  } else if (warm === 'cards') {
    app.log.warn(`the servers' cards are not all read (a read failed or took over ${config.startupWaitMs} ms): listening anyway`);
  }
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app.close();
    throw error;
  }
  app.log.info(`RP Servers is up at ${config.publicUrl}`);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    const { drainMs, timeoutMs } = config.shutdown;
    const drain = signal === 'SIGTERM' ? drainMs : 0;
    app.log.info({ signal, drainMs: drain }, 'shutting down');
    app.drain();
    const force = setTimeout(() => {
      app.log.error(`shutdown took longer than ${timeoutMs} ms; exiting`);
      process.exit(1);
    }, drain + timeoutMs);
    force.unref();
    new Promise((resolve) => setTimeout(resolve, drain))
      .then(() => app.close())
      .then(
        () => {
          app.log.info('closed');
          process.exit(0);
        },
        (err: unknown) => {
          app.log.error({ err }, 'error while closing');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
