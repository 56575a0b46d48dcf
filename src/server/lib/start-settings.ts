import v8 from 'node:v8';
import { SERVER_ENV, serverNodeFlags } from '../../../scripts/lib/node-flags.mjs';

/**
 * V8 flags of `npm start` that still act when set once the process runs: the old generation's
 * growth is read at each full collection. The young generation's size is fixed when the heap is
 * made, so `--max-semi-space-size` can only come from node's command line or `NODE_OPTIONS`.
 */
const SETTABLE_LATER = new Set(['--heap-growing-percent']);

export interface StartSettings {
  /** `npm start`'s flags this process set itself, its command line having none of them. */
  set: string[];
  /** What only the command line or the environment can give, and this process lacks. */
  missing: string[];
}

interface Given {
  /** Node's own command-line options (`process.execArgv`). */
  execArgv: readonly string[];
  env: NodeJS.ProcessEnv;
  /** Whether malloc is glibc's, whose variables `npm start` sets. */
  glibc: boolean;
  setFlags: (flags: string) => void;
}

/** Whether this process's C library is glibc (on musl or another OS, malloc's variables mean nothing). */
export function isGlibc(): boolean {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return Boolean(report?.header?.glibcVersionRuntime);
}

/**
 * A process started as `node dist/server/server.js`, by a process manager or a container, runs
 * without what `npm start` gives it (`scripts/lib/node-flags.mjs`). Sets what can still be set, so
 * the heap grows as in production whichever way it started, and names the rest for a warning. A
 * value the operator gave wins, as it does over `npm start`'s (docs/decisions/076-settings-of-a-direct-start.md).
 */
export function applyStartSettings(given: Partial<Given> = {}): StartSettings {
  const { execArgv = process.execArgv, env = process.env, setFlags = v8.setFlagsFromString } = given;
  const settings: StartSettings = { set: [], missing: [] };
  // `npm start`'s flags that neither the command line nor NODE_OPTIONS names, in either spelling.
  for (const flag of serverNodeFlags([...execArgv, env.NODE_OPTIONS ?? ''].join(' '))) {
    if (SETTABLE_LATER.has(flag.split('=')[0]!)) {
      setFlags(flag);
      settings.set.push(flag);
    } else settings.missing.push(flag);
  }
  const unset = Object.entries(SERVER_ENV).filter(([name]) => env[name] === undefined);
  // Asked only when a variable is missing: the report behind it is a few milliseconds of start-up.
  if (unset.length > 0 && (given.glibc ?? isGlibc())) settings.missing.push(...unset.map(([name, value]) => `${name}=${value}`));
  return settings;
}
