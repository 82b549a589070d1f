// npm run seed -- --email <e> --password <p> [--name <n>]
// Creates (or reuses) a verified user with a workspace and its default router, creates an access
// token, and prints one JSON line: { userId, workspaceId, routerId, accessToken }.
import { parseArgs } from 'node:util';
import { localPoolUrl, settings } from './lib/env';
import { loadInstanceSecrets } from '../lib/runtime/secrets';
import { prepareDatabase } from '../lib/runtime/database';

const { values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } } });
if (!values.email || !values.password) {
  console.error('usage: npm run seed -- --email <e> --password <p> [--name <n>]');
  process.exit(2);
}

const secrets = loadInstanceSecrets(settings.dataDir);
const database = await prepareDatabase({ dataDir: settings.dataDir, postgresPassword: secrets.postgresPassword, embeddedPort: settings.embeddedPostgresPort });
process.env.DATABASE_URL = database.url;
process.env.ENCRYPTION_KEY = secrets.encryptionKey;
process.env.LOG_LEVEL ??= 'warn';
// The same first provider a sign-up on this install gets (LOCAL_POOL_AUTO_PROVIDER=0: none).
process.env.LOCAL_POOL_URL = localPoolUrl();

// Imported after the environment is set: lib/db reads DATABASE_URL on first use.
const { seedUser } = await import('../lib/users/seed-user');
try {
  const result = await seedUser({ email: values.email, password: values.password, name: values.name });
  console.log(JSON.stringify(result));
} catch (error) {
  console.error(`seed failed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  const { db } = await import('../lib/db');
  await db.$disconnect();
  await database.stop();
}
