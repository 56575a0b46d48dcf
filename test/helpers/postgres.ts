import crypto from 'node:crypto';

/** Name of this run's template database: unique per run, so parallel runs do not collide. */
export function templateName(): string {
  return `rp_tpl_${process.pid}_${Date.now().toString(36)}`;
}

export function freshDatabaseName(): string {
  return `rp_test_${crypto.randomBytes(6).toString('hex')}`;
}

/** The maintenance database on the same server, to create and drop test databases from. */
export function adminUrl(url: string): string {
  return withDatabase(url, 'postgres');
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
