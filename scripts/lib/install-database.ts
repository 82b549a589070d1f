// The database of the install in DATA_DIR, for the shell commands that work on it beside a running
// `npm start` (`npm run seed`, `npm run operator`): its secrets, then its PostgreSQL (the embedded
// one started or joined, or DATABASE_URL), with the environment lib/db reads set before it loads.
import { loadInstanceSecrets } from '../../lib/runtime/secrets';
import { prepareDatabase } from '../../lib/runtime/database';
import { localPoolUrl, settings } from './env';

export async function openInstallDatabase(): Promise<{ stop: () => Promise<void> }> {
  const secrets = loadInstanceSecrets(settings.dataDir);
  const database = await prepareDatabase({ dataDir: settings.dataDir, postgresPassword: secrets.postgresPassword, embeddedPort: settings.embeddedPostgresPort });
  process.env.DATABASE_URL = database.url;
  process.env.ENCRYPTION_KEY = secrets.encryptionKey;
  process.env.LOG_LEVEL ??= 'warn';
  // The same first provider a sign-up on this install gets (LOCAL_POOL_AUTO_PROVIDER=0: none); the
  // pool's token lets the sign-up read its capacity.
  process.env.LOCAL_POOL_URL = localPoolUrl();
  process.env.POOL_TOKEN ||= secrets.poolToken;
  return { stop: () => database.stop() };
}
