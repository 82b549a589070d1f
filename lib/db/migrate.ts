// Migrations in Prisma's standard folder layout, applied with Prisma's own schema engine compiled
// to WebAssembly, so no downloaded native engine is needed. `prisma migrate deploy` reads the same
// folders and the same `_prisma_migrations` table.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';

const require = createRequire(import.meta.url);
const root = process.cwd();
export const schemaPath = path.join(root, 'prisma', 'schema.prisma');
export const migrationsDir = path.join(root, 'prisma', 'migrations');
const noFilters = { externalTables: [] as string[], externalEnums: [] as string[] };

interface SchemaEngineModule {
  __wbg_set_wasm(exports: unknown): void;
  SchemaEngine: {
    new: (options: { datamodels: [string, string][] }, log: (line: string) => void, adapter: object) => Promise<SchemaEngineInstance>;
  };
}
interface SchemaEngineInstance {
  applyMigrations(input: unknown): Promise<{ appliedMigrationNames: string[] }>;
  diff(input: unknown): Promise<{ exitCode: number; stdout: string | null }>;
  free(): void;
}

let enginePromise: Promise<SchemaEngineModule> | undefined;

async function loadEngineModule(): Promise<SchemaEngineModule> {
  const dir = path.dirname(require.resolve('@prisma/schema-engine-wasm'));
  const bindings = (await import(path.join(dir, 'schema_engine_bg.js'))) as SchemaEngineModule;
  const bytes = readFileSync(path.join(dir, 'schema_engine_bg.wasm'));
  // The engine never clears its timers (its 10 s lock timeout stays pending once the lock is taken),
  // which kept `npm run seed` and `npm run db:migrate` alive 10 s after their work: unref them.
  const imports: Record<string, unknown> = { ...bindings };
  for (const name of Object.keys(imports).filter((key) => key.startsWith('__wbg_setTimeout_'))) {
    imports[name] = (callback: () => void, ms: number) => setTimeout(callback, ms >>> 0).unref();
  }
  const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': imports as WebAssembly.ModuleImports });
  bindings.__wbg_set_wasm(instance.exports);
  (instance.exports as { __wbindgen_start?: () => void }).__wbindgen_start?.();
  return bindings;
}

/**
 * A connection factory for the engine that closes what it opened. The engine takes PostgreSQL's
 * migration advisory lock on its connection and `free()` leaves that connection open: the lock stayed
 * held for the life of the process, and every later migrator (`npm run seed` beside `npm start`, a
 * second call here) waited out the engine's 10 s lock timeout.
 */
function closingFactory(databaseUrl: string) {
  const factory = new PrismaPg({ connectionString: databaseUrl });
  const opened: { dispose(): Promise<void> }[] = [];
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    opened.push(adapter);
    return adapter;
  };
  return { factory, close: () => Promise.all(opened.map((adapter) => adapter.dispose())) };
}

async function withEngine<T>(databaseUrl: string, fn: (engine: SchemaEngineInstance) => Promise<T>): Promise<T> {
  enginePromise ??= loadEngineModule();
  const bindings = await enginePromise;
  const connections = closingFactory(databaseUrl);
  const datamodel = readFileSync(schemaPath, 'utf8');
  const engine = await bindings.SchemaEngine.new({ datamodels: [[schemaPath, datamodel]] }, () => {}, bindMigrationAwareSqlAdapterFactory(connections.factory));
  try {
    return await fn(engine);
  } finally {
    engine.free();
    await connections.close();
  }
}

function migrationsList() {
  const lockPath = path.join(migrationsDir, 'migration_lock.toml');
  const directories = existsSync(migrationsDir)
    ? readdirSync(migrationsDir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort()
        .map((name) => ({
          path: name,
          migrationFile: {
            path: 'migration.sql',
            content: { tag: 'ok', value: readFileSync(path.join(migrationsDir, name, 'migration.sql'), 'utf8') },
          },
        }))
    : [];
  return {
    baseDir: migrationsDir,
    lockfile: { path: lockPath, content: existsSync(lockPath) ? readFileSync(lockPath, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories: directories,
  };
}

/** Applies pending migrations; returns the names applied (empty when up to date). */
export async function applyMigrations(databaseUrl: string): Promise<string[]> {
  return withEngine(databaseUrl, async (engine) => {
    const result = await engine.applyMigrations({ migrationsList: migrationsList(), filters: noFilters });
    return result.appliedMigrationNames;
  });
}

/**
 * SQL from the schema snapshot kept beside the newest migration to the current schema.
 * A pure schema-to-schema diff: introspecting a shadow database trips the wasm engine on
 * PostgreSQL's "char" columns, and a snapshot needs no database at all.
 */
export async function diffSinceLastMigration(databaseUrl: string): Promise<{ sql: string; datamodel: string }> {
  const datamodel = readFileSync(schemaPath, 'utf8');
  const last = migrationsList().migrationDirectories.at(-1);
  const snapshot = last ? path.join(migrationsDir, last.path, snapshotName) : undefined;
  if (last && !existsSync(snapshot!)) throw new Error(`${last.path} has no ${snapshotName}; cannot diff`);
  // The engine insists on a live connection even for a database-free diff.
  return withEngine(databaseUrl, async (engine) => {
    const result = await engine.diff({
      from: snapshot ? { tag: 'schemaDatamodel', files: [{ path: snapshot, content: readFileSync(snapshot, 'utf8') }] } : { tag: 'empty' },
      to: { tag: 'schemaDatamodel', files: [{ path: schemaPath, content: datamodel }] },
      script: true,
      exitCode: null,
      shadowDatabaseUrl: null,
      filters: noFilters,
    });
    return { sql: result.stdout ?? '', datamodel };
  });
}

export const snapshotName = 'schema.snapshot.prisma';
