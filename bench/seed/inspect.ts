import { parseArgs } from 'node:util';
import { openDatabase } from '../../src/server/db/database';
import { seedChecksums } from './checksum';
import { prepareDatabase } from './database';
import { DEFAULT_SEED, FULL_SIZES, QUICK_SIZES, checkServerCounters, readSeededFacts } from './seed';
import { measureShape } from './shape';

/**
 * Seeds (or only reads) a benchmark database and prints the shape of its data and a checksum of
 * each table: to see the skews, and that one seed and one size always give the same rows.
 *
 *   node --import tsx bench/seed/inspect.ts --db NAME [--seed N] [--seed-first] [--quick]
 *
 * With DATABASE_URL: database NAME on that server (seeded first with --seed-first, else read as
 * it is). Without: a fresh embedded database, seeded, measured and removed.
 */
function databaseUrl(adminUrl: string, dbName: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  return url.toString();
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      db: { type: 'string', default: 'rp_bench' },
      seed: { type: 'string' },
      'seed-first': { type: 'boolean', default: false },
      quick: { type: 'boolean', default: false },
    },
  });
  const adminUrl = process.env.DATABASE_URL || undefined;
  const sizes = values.quick ? QUICK_SIZES : FULL_SIZES;
  const seed = values.seed === undefined ? DEFAULT_SEED : Number(values.seed);
  const prepared =
    !adminUrl || values['seed-first']
      ? await prepareDatabase({ adminUrl, dbName: values.db!, sizes, reuse: false, seed, log: (line) => console.error(line) })
      : undefined;
  const handle = prepared
    ? await prepared.open()
    : await openDatabase({ kind: 'postgres', url: databaseUrl(adminUrl!, values.db!), poolSize: 1, statementTimeoutMs: 0 });
  try {
    const facts = await readSeededFacts(handle.db);
    const started = performance.now();
    const report = {
      database: prepared?.target.kind === 'pglite' ? 'embedded' : values.db,
      seed: facts?.seed,
      sizes: facts?.sizes,
      seedSeconds: prepared?.seedSeconds,
      topVoted: facts?.topVoted,
      counters: await checkServerCounters(handle.db),
      shape: await measureShape(handle.db),
      checksums: await seedChecksums(handle.db),
    };
    console.log(JSON.stringify(report, null, 2));
    console.error(`measured in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return report.counters.total === 0 ? 0 : 1;
  } finally {
    await handle.close();
    prepared?.dispose();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
