import { parseArgs } from 'node:util';
import { FULL_SIZES, QUICK_SIZES, type SeedSizes } from '../seed/seed';
import { KINDS, type Kind } from './report';
import { MIXES, type MixName } from './vote-plan';

/** The benchmark's command line: `npm run bench -- --help` prints it. */
export const USAGE = `npm run bench -- [options]
  --quick            tiny data on the embedded database, 1 s per target; fails on errors or
                     counters that differ from their rows, never on speed (part of npm test)
  --seconds N        seconds of load per side and target (default 6; quick 1)
  --volume-seconds N seconds of each votes-at-volume run (default 30; quick as --seconds)
  --vote-rate N      votes a second streamed during the reads of the mixed run (default 1000; quick 10)
  --vote-mix NAME    what the mixed run streams: campaign-with-daily (default: likes, a tenth on the
                     ten most-voted, a quarter daily votes), campaign (no daily votes) or likes
  --seed N           the seed the data is drawn from (default 1: the same seed and sizes, the same
                     rows); shown in the table and the results
  --cache-stats      the app serves its metrics on a port of its own: how many answers each
                     response cache gave (front, lists, feeds, pages) is printed per scenario
                     (adds the metrics' per-request timing to every answer: a diagnosis, not a run to compare)
  --reuse            keep an earlier seed of the same sizes in the benchmark database
  --db NAME          PostgreSQL database the benchmark (re)creates (default rp_bench)
  --redis            start the app with REDIS_URL (default redis://127.0.0.1:6379)
  --seed-only        seed, print the time and stop
  --instances N      N app processes on one PostgreSQL and one Redis, every load split across
                     them: checks errors, exact counters and that each instance shows the others'
                     votes (results go to bench/results-instances.json; with --quick, tiny data in
                     a database of its own run, dropped after; part of npm test on PostgreSQL)
  --only KINDS       measure only these, comma-separated: ${KINDS.join(', ')} (results go to
                     bench/results-partial.json, never over the full table)
  --servers N --users N --votes N --reviews N --joins N --boosts N --views N --voters N
                     sizes (default 100,000 servers, 200,000 users, 1,000,000 votes,
                     200,000 reviews, 100,000 joins)
Environment: DATABASE_URL (a PostgreSQL server; the benchmark works in its own database there).`;

export const SIZE_FLAGS = ['servers', 'users', 'votes', 'reviews', 'joins', 'boosts', 'views', 'voters'] as const;

const wholeNumber = (v: string | undefined) => (v === undefined ? undefined : Number(v.replace(/[_,]/g, '')));

/** The run's options, or the exit code when there is nothing to run (help, or a wrong flag: printed). */
export function parseOptions(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      quick: { type: 'boolean', default: false },
      seconds: { type: 'string' },
      'volume-seconds': { type: 'string' },
      'vote-rate': { type: 'string' },
      'vote-mix': { type: 'string', default: 'campaign-with-daily' },
      seed: { type: 'string' },
      reuse: { type: 'boolean', default: false },
      'cache-stats': { type: 'boolean', default: false },
      db: { type: 'string', default: 'rp_bench' },
      redis: { type: 'boolean', default: false },
      'seed-only': { type: 'boolean', default: false },
      only: { type: 'string' },
      instances: { type: 'string' },
      help: { type: 'boolean', default: false },
      ...Object.fromEntries(SIZE_FLAGS.map((f) => [f, { type: 'string' as const }])),
    },
  });
  const fail = (message: string) => {
    console.error(`${message}\n\n${USAGE}`);
    return 2;
  };
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const quick = values.quick === true;
  const sizes: SeedSizes = { ...(quick ? QUICK_SIZES : FULL_SIZES) };
  for (const f of SIZE_FLAGS) {
    const v = (values as Record<string, unknown>)[f];
    if (typeof v === 'string') sizes[f] = wholeNumber(v)!;
  }
  const seconds = Number(values.seconds ?? (quick ? 1 : 6));
  const volumeSeconds = wholeNumber(values['volume-seconds']) ?? (quick ? seconds : 30);
  // The embedded database runs in the app's own thread: a quick run streams fewer votes, or reads
  // would wait behind them for longer than a target lasts.
  const voteRate = wholeNumber(values['vote-rate']) ?? (quick ? 10 : 1000);
  const seed = wholeNumber(values.seed);
  const numbers = [...Object.values(sizes), volumeSeconds, voteRate, ...(seed === undefined ? [] : [seed])];
  if (numbers.some((n) => !Number.isSafeInteger(n) || n < 0) || sizes.servers < 1 || sizes.users < 2 || !(seconds > 0))
    return fail('Sizes, --seed, --vote-rate and --volume-seconds take whole numbers (at least 1 server and 2 users).');
  const only = values.only ? new Set(values.only.split(',').map((k) => k.trim())) : undefined;
  if (only && [...only].some((k) => !(KINDS as readonly string[]).includes(k))) return fail(`--only takes ${KINDS.join(', ')}.`);
  const voteMix = values['vote-mix'] as MixName;
  if (!(voteMix in MIXES)) return fail(`--vote-mix takes ${Object.keys(MIXES).join(', ')}.`);
  const instances = Number(values.instances ?? 1);
  if (!Number.isSafeInteger(instances) || instances < 1 || instances > 8) return fail('--instances takes 1 to 8.');
  return { quick, sizes, seconds, volumeSeconds, voteRate, voteMix, seed, only: only as Set<Kind> | undefined, instances, values };
}
