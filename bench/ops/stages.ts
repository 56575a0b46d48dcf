import type { OpsInstance } from './instance';
import { clock } from './instance';
import type { Nginx } from './nginx';
import { startLoad, type Outcome, type RequestMix } from './traffic';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** What a stage needs: the instances behind nginx, the load and the run's timings. */
export interface StageEnv {
  instances: readonly OpsInstance[];
  nginx: Nginx;
  mix: RequestMix;
  load: { connections: number; rate: number };
  /** Load before and after the stage's own steps, so it starts and ends on a steady rotation. */
  settleMs: number;
  drainMs: number;
  /** How long after an instance is ready nginx may still leave it out (its `fail_timeout`, rounded up). */
  rejoinMs: number;
  /** Prints a step and keeps it for the results. */
  event(line: string): void;
}

export interface StageResult {
  outcomes: Outcome[];
  /** nginx's error log written during the stage. */
  errorLog: string;
}

const loadFor = (env: StageEnv) => startLoad({ url: env.nginx.url, ...env.load, maxSeconds: 900, mix: env.mix });

/**
 * Each instance in turn, `rounds` times, under the load: SIGTERM, wait for it to exit, start it,
 * wait until `/api/ready` is 200 and until nginx may use it again, then the next one. Answers the
 * exit codes that were not 0 besides the outcomes.
 */
export async function rollingRestart(env: StageEnv, rounds: number): Promise<StageResult & { badExits: string[]; signals: number[] }> {
  const logBefore = env.nginx.errors().length;
  const badExits: string[] = [];
  const signals: number[] = [];
  const load = loadFor(env);
  await sleep(env.settleMs);
  for (let round = 1; round <= rounds; round++) {
    for (const instance of env.instances) {
      signals.push(clock());
      const stopped = await instance.terminate();
      env.event(`${instance.name}: SIGTERM → exit ${stopped.code} after ${secs(stopped.ms)} (a drain of ${secs(env.drainMs)} included)`);
      if (stopped.code !== 0) badExits.push(`instance ${instance.name} exited ${stopped.code} on SIGTERM`);
      const ready = await instance.start();
      env.event(`${instance.name}: started, /api/ready 200 after ${secs(ready)}; ${secs(env.rejoinMs)} more for nginx to use it again`);
      await sleep(env.rejoinMs);
    }
  }
  await sleep(env.settleMs);
  const outcomes = await load.stop();
  return { outcomes, errorLog: env.nginx.errors().slice(logBefore), badExits, signals };
}

/**
 * `kill -9` of one instance under the load; the other carries on alone for a while, then the
 * killed one is started again. Answers when the signal went out and when the process was gone.
 */
export async function killOne(env: StageEnv, victim: OpsInstance): Promise<StageResult & { signalled: number; gone: number }> {
  const logBefore = env.nginx.errors().length;
  const load = loadFor(env);
  await sleep(env.settleMs);
  const signalled = clock();
  await victim.kill();
  const gone = clock();
  env.event(
    `${victim.name}: SIGKILL, gone ${(gone - signalled).toFixed(1)} ms later; the other instance alone for ${secs(2 * env.settleMs)}`,
  );
  await sleep(2 * env.settleMs);
  env.event(`${victim.name}: started again, /api/ready 200 after ${secs(await victim.start())}`);
  await sleep(env.settleMs);
  const outcomes = await load.stop();
  return { outcomes, errorLog: env.nginx.errors().slice(logBefore), signalled, gone };
}
