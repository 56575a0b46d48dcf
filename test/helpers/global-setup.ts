import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/database';
import { migrateToLatest } from '../../src/server/db/migrate';
import { ensureReferenceData } from '../../src/server/db/reference-data';
import { adminUrl, templateName, withDatabase } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string;
  }
}

/**
 * Migrates once per run, then every test file starts from a copy (house style): a PGlite dump
 * file for the embedded database, a template database on PostgreSQL.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const template = templateName();
    const admin = await openDatabase({ kind: 'postgres', url: adminUrl(url), poolSize: 1 });
    await sql`DROP DATABASE IF EXISTS ${sql.id(template)} WITH (FORCE)`.execute(admin.db);
    await sql`CREATE DATABASE ${sql.id(template)}`.execute(admin.db);
    const target = await openDatabase({ kind: 'postgres', url: withDatabase(url, template), poolSize: 1 });
    await migrateToLatest(target.db);
    await ensureReferenceData(target.db);
    await target.close();
    project.provide('postgresTemplate', template);
    project.provide('pgliteTemplate', '');
    return async () => {
      await sql`DROP DATABASE IF EXISTS ${sql.id(template)} WITH (FORCE)`.execute(admin.db);
      await admin.close();
    };
  }

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-test-'));
  const handle = await openDatabase({ kind: 'pglite' });
  await migrateToLatest(handle.db);
  await ensureReferenceData(handle.db);
  const dump = await dumpOf(handle);
  const file = path.join(dir, 'template.tar.gz');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide('pgliteTemplate', file);
  project.provide('postgresTemplate', '');
  return async () => fs.rmSync(dir, { recursive: true, force: true });
}

async function dumpOf(handle: Awaited<ReturnType<typeof openDatabase>>): Promise<Blob> {
  if (!handle.pglite) throw new Error('not an embedded database');
  return handle.pglite.dumpDataDir('gzip');
}
