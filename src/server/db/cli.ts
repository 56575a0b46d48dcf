import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../config';
import { createLocalStorage } from '../adapters/storage';
import { openDatabase } from './database';
import { migrateDatabase } from './migrate';
import { ensureReferenceData } from './reference-data';
import { seedDemo } from './seed/demo';

/**
 * `npm run db:migrate` and `npm run db:seed` against the configured database (DATABASE_URL,
 * else the embedded one in DATA_DIR). The app also migrates at start-up; these are for operators.
 */
async function main(command: string | undefined): Promise<void> {
  if (command !== 'migrate' && command !== 'seed') throw new Error('usage: cli.ts migrate|seed');
  const config = loadConfig();
  const handle = await openDatabase(
    config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: path.join(config.dataDir, 'db') },
  );
  const log = pino({ level: 'info' });
  try {
    const applied = await migrateDatabase(handle, config.databaseUrl);
    await ensureReferenceData(handle.db);
    log.info({ applied }, applied.length ? 'migrated' : 'schema already up to date');
    if (command === 'seed') await seedDemo(handle.db, createLocalStorage(path.join(config.dataDir, 'uploads')), log);
  } finally {
    await handle.close();
  }
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
