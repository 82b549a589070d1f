// Prisma CLI configuration. The app itself never reads this file: lib/db builds its client with
// the pg adapter, and lib/db/migrate applies migrations with the WebAssembly schema engine.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/browser_router' },
});
