// Brings the database up for a process that owns it (npm start, the test runner, seed):
// the server named by DATABASE_URL, else embedded PostgreSQL under the data directory;
// then applies pending migrations.
import { applyMigrations } from '../db/migrate';
import path from 'node:path';
import { checkEmbeddedPort, runningServerPort, startEmbeddedPostgres } from '../db/embedded';
import { settings } from '../config/settings';

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
  const external = settings().databaseUrl;
  if (external) {
    const applied = await applyMigrations(external);
    return { url: external, embedded: false, applied, stop: async () => {} };
  }
  // Another process of this install (e.g. `npm start`) already runs the embedded server: share it,
  // on the port it listens on (from its postmaster.pid: a second terminal may have another
  // EMBEDDED_PG_PORT). Anything else on the port is refused here, before a login that could only fail.
  const databaseDir = path.resolve(options.dataDir, 'postgres');
  const port = runningServerPort(databaseDir) ?? options.embeddedPort;
  if ((await checkEmbeddedPort(options.dataDir, port)) === 'ours') {
    const url = `postgresql://postgres:${encodeURIComponent(options.postgresPassword)}@127.0.0.1:${port}/browser_router`;
    return { url, embedded: true, applied: await applyMigrations(url), stop: async () => {} };
  }
  const server = await startEmbeddedPostgres({ dataDir: options.dataDir, port, password: options.postgresPassword, log: options.log }).catch(
    (error: unknown) => {
      // The library rejects with nothing at all when the server exits at start.
      const why = error instanceof Error ? error.message : 'the server exited at start without saying why (run npm start with LOG_LEVEL=info to see its log)';
      throw new Error(
        `could not start the embedded PostgreSQL in ${databaseDir} on port ${port}: ${why}; or set DATABASE_URL to a PostgreSQL server of your own`,
      );
    },
  );
  try {
    const applied = await applyMigrations(server.url);
    return { url: server.url, embedded: true, applied, stop: server.stop };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
