// The database of the install in DATA_DIR, for the shell commands that work on it beside a running
// `npm start` (`npm run seed`, `npm run operator`): its secrets, then its PostgreSQL (the embedded
// one started or joined, or DATABASE_URL), with the environment lib/db reads set before it loads.
import { loadInstanceSecrets } from '../../lib/runtime/secrets';
import { prepareDatabase } from '../../lib/runtime/database';
import { localPoolUrl, settings } from './env';
import { reloadSettings } from '../../lib/config/settings';

/** Opens it, or says in one line what went wrong and what to set, and exits with 1. */
export async function openInstallDatabase(command: string): Promise<{ stop: () => Promise<void> }> {
  let database: Awaited<ReturnType<typeof prepareDatabase>>;
  let secrets: ReturnType<typeof loadInstanceSecrets>;
  try {
    secrets = loadInstanceSecrets(settings.dataDir);
    database = await prepareDatabase({ dataDir: settings.dataDir, postgresPassword: secrets.postgresPassword, embeddedPort: settings.embeddedPostgresPort });
  } catch (error) {
    console.error(`${command}: no database for the install in ${settings.dataDir} (DATA_DIR): ${(error as Error).message}`);
    process.exit(1);
  }
  process.env.DATABASE_URL = database.url;
  process.env.ENCRYPTION_KEY = secrets.encryptionKey;
  process.env.LOG_LEVEL ??= 'warn';
  // The same first provider a sign-up on this install gets (LOCAL_POOL_AUTO_PROVIDER=0: none); the
  // pool's token lets the sign-up read its capacity.
  process.env.LOCAL_POOL_URL = localPoolUrl();
  process.env.POOL_TOKEN ||= secrets.poolToken;
  reloadSettings();
  return { stop: () => database.stop() };
}
