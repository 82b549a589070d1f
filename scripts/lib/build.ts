// A production build of the dashboard/API, made when missing or when its sources changed.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { nextBin, runToEnd } from './processes';

const sources = ['app', 'components', 'lib', 'next.config.ts', 'package-lock.json', 'postcss.config.mjs', 'prisma/schema.prisma'];

function sourceHash(): string {
  const hash = createHash('sha256');
  const visit = (entry: string) => {
    if (!existsSync(entry)) return;
    if (statSync(entry).isDirectory()) {
      for (const name of readdirSync(entry).sort()) if (name !== 'generated' && !name.endsWith('.test.ts')) visit(path.join(entry, name));
    } else {
      hash.update(entry).update(readFileSync(entry));
    }
  };
  sources.forEach(visit);
  return hash.digest('hex');
}

/**
 * Builds unless the build of these sources exists. `checkTypes: false` skips Next's type check of the
 * app (BUILD_SKIP_TYPECHECK, read by next.config.ts) for a caller that checks the whole tree itself.
 */
export async function ensureBuild(env: NodeJS.ProcessEnv, log: (line: string) => void, options: { checkTypes: boolean } = { checkTypes: true }): Promise<void> {
  const marker = path.join('.next', 'source-hash');
  const current = sourceHash();
  if (existsSync(path.join('.next', 'BUILD_ID')) && existsSync(marker) && readFileSync(marker, 'utf8') === current) return;
  log('building the web app (next build); this takes a few minutes on a small machine…');
  const code = await runToEnd([nextBin, 'build'], { ...env, NEXT_TELEMETRY_DISABLED: '1', BUILD_SKIP_TYPECHECK: options.checkTypes ? '0' : '1' });
  if (code !== 0) throw new Error(`next build failed with exit code ${code}`);
  writeFileSync(marker, current);
}
