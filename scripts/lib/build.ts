// The builds a start runs from, each made when missing or when its sources changed: the production
// build of the dashboard/API, and the services (web, proxy, pool) compiled to JavaScript, so that no
// start transpiles TypeScript.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { compileWithInputs } from './compile';
import { nextBin, runToEnd } from './processes';

const sources = ['app', 'components', 'lib', 'next.config.ts', 'package-lock.json', 'postcss.config.mjs', 'prisma/schema.prisma'];
const serviceSources = ['lib', 'proxy', 'scripts', 'package-lock.json', 'prisma/schema.prisma', 'tsconfig.json'];

/** The entry of each service a start runs, and of the gateway command (proxy/cli/gateway.mjs). */
export const SERVICES = { web: 'scripts/web-server.ts', proxy: 'proxy/index.ts', pool: 'proxy/pool/index.ts' } as const;
export type Service = keyof typeof SERVICES;
export const GATEWAY_ENTRIES = ['proxy/cli/main.ts', 'proxy/cli/browse-daemon.ts'];
/** The install's commands run through scripts/run.mjs (`npm run seed`, …). */
const COMMAND_ENTRIES = ['scripts/seed.ts', 'scripts/operator.ts', 'scripts/reset-password.ts', 'scripts/migrate.ts'];
/** Where the compiled programs are; `current.json` names the newest and the files it was made from. */
export const PROGRAMS_DIR = path.join('.build', 'programs');

function sourceHash(sources: string[]): string {
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
  const current = sourceHash(sources);
  if (existsSync(path.join('.next', 'BUILD_ID')) && existsSync(marker) && readFileSync(marker, 'utf8') === current) return;
  log('building the web app (next build); this takes a few minutes on a small machine…');
  const code = await runToEnd([nextBin, 'build'], { ...env, NEXT_TELEMETRY_DISABLED: '1', BUILD_SKIP_TYPECHECK: options.checkTypes ? '0' : '1' });
  if (code !== 0) throw new Error(`next build failed with exit code ${code}`);
  writeFileSync(marker, current);
}

/**
 * The services and the gateway command compiled from the sources as they are now (about a second
 * when they changed). Each version has a folder of its own under `.build/programs/`, named by its
 * sources' hash: a process still running an older version keeps its files (it loads some later,
 * on first use) until a build of other sources, two versions on, removes them. `current.json`
 * lists each source file with its hash, for the gateway launcher to check before it uses them.
 */
export async function compileServices(log: (line: string) => void): Promise<Record<Service, string>> {
  const version = sourceHash(serviceSources).slice(0, 16);
  const dir = path.join(PROGRAMS_DIR, version);
  if (!existsSync(path.join(dir, 'complete'))) {
    const started = Date.now();
    const staging = `${dir}.${process.pid}`;
    const current = await compileProgram([...Object.values(SERVICES), ...GATEWAY_ENTRIES, ...COMMAND_ENTRIES], staging, version);
    if (!existsSync(path.join(dir, 'complete'))) rmSync(dir, { recursive: true, force: true }); // a compile that was cut short
    try {
      renameSync(staging, dir);
    } catch {
      rmSync(staging, { recursive: true, force: true }); // another start compiled the same sources first
    }
    writeFileSync(`${path.join(PROGRAMS_DIR, 'current.json')}.${process.pid}`, current);
    renameSync(`${path.join(PROGRAMS_DIR, 'current.json')}.${process.pid}`, path.join(PROGRAMS_DIR, 'current.json'));
    log(`compiled the web, proxy and pool services and the commands in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    pruneVersions(version);
  }
  const compiled = (entry: string) => path.join(dir, entry.replace(/\.ts$/, '.mjs'));
  return { web: compiled(SERVICES.web), proxy: compiled(SERVICES.proxy), pool: compiled(SERVICES.pool) };
}

/**
 * Compiles `entries` into `dir` (for sources that lie at `sourcesRoot` when it runs), marks it
 * complete, and answers the `current.json` that names it: its version and each source file it was
 * made from with its SHA-256, which the gateway launcher checks (proxy/cli/compiled-command.mjs).
 */
export async function compileProgram(entries: string[], dir: string, version: string, sourcesRoot?: string): Promise<string> {
  const { inputs } = await compileWithInputs(entries, dir, sourcesRoot);
  writeFileSync(path.join(dir, 'complete'), `${new Date().toISOString()}\n`);
  return JSON.stringify({ version, inputs: inputs.map((input) => [input, fileHash(input)]) });
}

function fileHash(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** Keeps the current version and the one before it (which a running process may still load from). */
function pruneVersions(current: string): void {
  const others = readdirSync(PROGRAMS_DIR)
    .filter((name) => name !== current && !name.includes('.'))
    .map((name) => ({ name, at: statSync(path.join(PROGRAMS_DIR, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const old of others.slice(1)) rmSync(path.join(PROGRAMS_DIR, old.name), { recursive: true, force: true });
}
