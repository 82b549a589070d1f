// npm run db:migrate — applies pending migrations to the PostgreSQL server named by DATABASE_URL
// and exits: the step before starting web and proxy processes of their own (docs/deployment.md).
// `npm start` does this itself.
import { applyMigrations } from '../lib/db/migrate';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL is not set: name the PostgreSQL server to migrate (npm start migrates its embedded one itself)');
  process.exit(2);
}
try {
  const applied = await applyMigrations(url);
  console.log(applied.length > 0 ? `applied: ${applied.join(', ')}` : 'the database is up to date');
} catch (error) {
  console.error(`migration failed: ${(error as Error).message}`);
  process.exit(1);
}
