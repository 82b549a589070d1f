// Brings the database up for a process that owns it (npm start, the test runner, seed):
// the server named by DATABASE_URL, else embedded PostgreSQL under the data directory;
// then applies pending migrations.
import { applyMigrations } from '../db/migrate';
import { checkEmbeddedPort, startEmbeddedPostgres } from '../db/embedded';

export interface ReadyDatabase {
  url: string;
  embedded: boolean;
  applied: string[];
  stop(): Promise<void>;
}

export async function prepareDatabase(options: {
  dataDir: string;
  postgresPassword: string;
  embeddedPort: number;
  log?: (line: string) => void;
}): Promise<ReadyDatabase> {
  const external = process.env.DATABASE_URL;
  if (external) {
    const applied = await applyMigrations(external);
    return { url: external, embedded: false, applied, stop: async () => {} };
  }
  // Another process of this install (e.g. `npm start`) already runs the embedded server: share it.
  // Anything else on the port is refused here, before a login that could only fail.
  if ((await checkEmbeddedPort(options.dataDir, options.embeddedPort)) === 'ours') {
    const url = `postgresql://postgres:${encodeURIComponent(options.postgresPassword)}@127.0.0.1:${options.embeddedPort}/browser_router`;
    return { url, embedded: true, applied: await applyMigrations(url), stop: async () => {} };
  }
  const server = await startEmbeddedPostgres({
    dataDir: options.dataDir,
    port: options.embeddedPort,
    password: options.postgresPassword,
    log: options.log,
  });
  try {
    const applied = await applyMigrations(server.url);
    return { url: server.url, embedded: true, applied, stop: server.stop };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
