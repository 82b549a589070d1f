// `prisma generate` without the native schema engine download (which fails offline):
// generate only checks that PRISMA_SCHEMA_ENGINE_BINARY names an existing file.
import { spawnSync } from 'node:child_process';

const env = { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: '1' };
const result = spawnSync('npx', ['prisma', 'generate'], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
