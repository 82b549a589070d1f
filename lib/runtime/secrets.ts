// Instance secrets: taken from the environment when set, else generated once and kept in
// <DATA_DIR>/secrets.json (mode 0600). They never appear in logs.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { authSecret } from '../auth/secret';
import { settings } from '../config/settings';

export interface InstanceSecrets {
  authSecret: string; // signs dashboard session cookies (next-auth)
  encryptionKey: string; // 32 bytes, base64: AES-256-GCM key for data at rest
  postgresPassword: string; // embedded PostgreSQL superuser
  poolToken: string; // the local browser pool's bearer token (POOL_TOKEN), for the proxy and the web process
}

/** The secrets kept in <DATA_DIR>/secrets.json, generated there the first time. */
export function storedInstanceSecrets(dataDir: string): InstanceSecrets {
  const file = path.join(dataDir, 'secrets.json');
  let stored: Partial<InstanceSecrets> = {};
  if (existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<InstanceSecrets>;
  const secrets: InstanceSecrets = {
    authSecret: stored.authSecret ?? randomBytes(32).toString('base64url'),
    encryptionKey: stored.encryptionKey ?? randomBytes(32).toString('base64'),
    postgresPassword: stored.postgresPassword ?? randomBytes(18).toString('base64url'),
    poolToken: stored.poolToken ?? randomBytes(32).toString('base64url'),
  };
  if (JSON.stringify(secrets) !== JSON.stringify(stored)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return secrets;
}

/** The instance's secrets: those the environment sets (lib/config/settings.ts), else the stored ones. */
export function loadInstanceSecrets(dataDir: string): InstanceSecrets {
  const secrets = storedInstanceSecrets(dataDir);
  const configured = settings();
  return {
    authSecret: authSecret() ?? secrets.authSecret,
    encryptionKey: configured.encryptionKey ?? secrets.encryptionKey,
    postgresPassword: secrets.postgresPassword,
    poolToken: configured.poolToken ?? secrets.poolToken,
  };
}
