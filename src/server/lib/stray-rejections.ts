import { isDatabaseUnavailable } from '../db/unavailable';

interface Log {
  error(object: { err: unknown }, message: string): void;
}

/**
 * For `process.on('unhandledRejection')`: a promise nobody waits for that failed because the
 * database was unreachable or too slow (a background read whose pool timed out under load) is
 * logged, and the process goes on: the ready check and the requests' 503s already report the
 * outage, and stopping would fail every request in flight. Anything else left unhandled is a
 * bug, and is thrown on, so the process stops as Node's default would.
 */
export function strayRejectionHandler(log: Log): (reason: unknown) => void {
  return (reason) => {
    if (!isDatabaseUnavailable(reason)) throw reason;
    log.error({ err: reason }, 'a database call nobody waited for failed: the database is unreachable or too slow');
  };
}
