import { fork } from 'node:child_process';
import path from 'node:path';
import type { RunVotes } from './votes';
import type { MixName } from './vote-plan';
import type { StreamResult, StreamStart } from './vote-stream-child';

export type { StreamResult } from './vote-stream-child';

/**
 * Starts the paced vote stream in a child process (its timer is not held up by the load generator
 * in this one) and answers once it sends. `stop` answers what it sent and got, and moves the run's
 * vote cursor past the votes it built, so later loads never repeat a voter's pair or an address.
 */
export async function startVoteStream(options: {
  baseUrl: string;
  votes: RunVotes;
  mix: MixName;
  rate: number;
  samples?: StreamStart['samples'];
}): Promise<{ stop: () => Promise<StreamResult> }> {
  const child = fork(path.join(import.meta.dirname, 'vote-stream-child.ts'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`the vote stream exited (${code})`))));
  // It exits after its answer too: that rejection is nobody's business.
  exited.catch(() => undefined);
  const reply = (type: 'started' | 'done') =>
    Promise.race([
      new Promise<{ result?: StreamResult }>((resolve) => {
        const onMessage = (message: { type: string; result?: StreamResult }) => {
          if (message.type !== type) return;
          child.off('message', onMessage);
          resolve(message);
        };
        child.on('message', onMessage);
      }),
      exited,
    ]);
  const start: StreamStart = {
    baseUrl: options.baseUrl,
    plan: options.votes.plan,
    cursor: options.votes.cursor,
    mix: options.mix,
    rate: options.rate,
    samples: options.samples ?? [],
  };
  child.send({ type: 'start', start });
  await reply('started');
  return {
    stop: async () => {
      child.send({ type: 'stop' });
      const { result } = await reply('done');
      Object.assign(options.votes.cursor, result!.cursor);
      return result!;
    },
  };
}
