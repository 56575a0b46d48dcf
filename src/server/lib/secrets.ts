import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Reads a secret kept in `DATA_DIR/secrets.json`, creating it on first use, so a single instance
 * needs no configuration and keeps its tokens valid across restarts. Several instances must set
 * the secret in the environment instead (README).
 */
export function loadOrCreateSecret(dataDir: string, name: string, create: () => string): string {
  const file = path.join(dataDir, 'secrets.json');
  fs.mkdirSync(dataDir, { recursive: true });
  let secrets: Record<string, string> = {};
  if (fs.existsSync(file)) secrets = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
  const existing = secrets[name];
  if (existing) return existing;
  const value = create();
  secrets[name] = value;
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  fs.renameSync(tmp, file);
  return value;
}

export const randomSecret = () => crypto.randomBytes(48).toString('base64url');
