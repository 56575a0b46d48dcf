import { Writable } from 'node:stream';
import type { FastifyServerOptions } from 'fastify';
import type { LoggedEntry } from './test-app';

/** A pino logger for `build` that keeps every entry at `level` and above, for tests that check warnings. */
export function captureLogs(level = 'warn'): { logger: FastifyServerOptions['logger']; entries: LoggedEntry[] } {
  const entries: LoggedEntry[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim()) entries.push(JSON.parse(line) as LoggedEntry);
      done();
    },
  });
  return { logger: { level, stream }, entries };
}
