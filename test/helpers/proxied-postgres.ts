import { sql } from 'kysely';
import { inject } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/database';
import { adminUrl, freshDatabaseName, withDatabase } from './postgres';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

export interface ProxiedDatabase {
  /** The app's handle: every connection goes through `proxy`. */
  handle: DatabaseHandle;
  proxy: TcpProxy;
  /** A direct connection for checks and for pg_terminate_backend, not affected by the proxy. */
  direct: DatabaseHandle;
  name: string;
  close(): Promise<void>;
}

/**
 * A copy of the run's migrated PostgreSQL template reached through a local TCP proxy, so a test
 * can refuse, cut or slow the app's connections while PostgreSQL itself keeps serving others.
 */
export async function openProxiedTestDatabase(
  options: { poolSize?: number; connectionTimeoutMs?: number; statementTimeoutMs?: number } = {},
): Promise<ProxiedDatabase> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('openProxiedTestDatabase needs TEST_DATABASE_URL');
  const name = freshDatabaseName();
  const admin = await openDatabase({ kind: 'postgres', url: adminUrl(url), poolSize: 1 });
  await sql`CREATE DATABASE ${sql.id(name)} TEMPLATE ${sql.id(inject('postgresTemplate'))}`.execute(admin.db);
  const target = new URL(url);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const proxied = new URL(withDatabase(url, name));
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  const handle = await openDatabase({ kind: 'postgres', url: proxied.toString(), poolSize: options.poolSize ?? 5, ...options });
  const direct = await openDatabase({ kind: 'postgres', url: withDatabase(url, name), poolSize: 2 });
  return {
    handle,
    proxy,
    direct,
    name,
    close: async () => {
      await proxy.resume();
      proxy.setLatency(0);
      await handle.close().catch(() => undefined);
      await direct.close();
      await proxy.close();
      await sql`DROP DATABASE IF EXISTS ${sql.id(name)} WITH (FORCE)`.execute(admin.db);
      await admin.close();
    },
  };
}
