// The `gateway` command's own package (docs/gateway.md, "Command line"): the files package.json's
// "files" lists, under a manifest of its own whose dependencies are only the packages the command
// loads, at the repository's versions. Installing it fetches the command's packages, not the web
// app's (Next.js, React, Prisma, embedded PostgreSQL). What the command loads is read from its
// launcher's import graph as esbuild resolves it, literal dynamic imports included, plus the files
// it reads beside its code and the packages it require.resolve()s.
//
// The package carries the command compiled ahead, as `npm start` compiles it (scripts/lib/build.ts),
// beside its sources: the launcher runs that copy, so an installed command never transpiles
// TypeScript and tsx is not among its dependencies.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { compileProgram, GATEWAY_ENTRIES, PROGRAMS_DIR } from './build';

export const GATEWAY_PACKAGE = 'browser-router-gateway';
const ROOT = path.resolve(import.meta.dirname, '../..');

interface RootManifest {
  version: string;
  bin: Record<string, string>;
  engines: Record<string, string>;
  dependencies: Record<string, string>;
}
export const rootManifest = (): RootManifest => JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as RootManifest;

/** The package a bare import names (`@scope/name/sub` → `@scope/name`). */
export const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

export interface GatewayGraph {
  /** Local modules, repository-relative with `/`. */
  modules: string[];
  /** Files read beside the code (`new URL('<relative>', import.meta.url)`). */
  readFiles: string[];
  /** Folders whose files are read by a computed name (`new URL(\`./templates/${…}\`, …)`). */
  readFolders: string[];
  packages: string[];
}

export async function gatewayGraph(): Promise<GatewayGraph> {
  const { metafile } = await build({
    entryPoints: [path.join(ROOT, rootManifest().bin.gateway!)],
    absWorkingDir: ROOT,
    tsconfig: path.join(ROOT, 'tsconfig.json'),
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
    outdir: path.join(os.tmpdir(), 'gateway-graph'),
  });
  const modules = Object.keys(metafile.inputs).map((file) => file.split(path.sep).join('/'));
  const readFiles = new Set<string>();
  const readFolders = new Set<string>();
  const packages = new Set<string>();
  for (const file of modules) {
    const source = readFileSync(path.join(ROOT, file), 'utf8');
    const near = (relative: string) => path.posix.normalize(path.posix.join(path.posix.dirname(file), relative));
    for (const [, relative] of source.matchAll(/new URL\(\s*['"`](\.{1,2}\/[^'"`$]+)['"`]\s*,\s*import\.meta\.url\s*\)/g)) readFiles.add(near(relative!));
    for (const [, prefix] of source.matchAll(/new URL\(\s*`(\.{1,2}\/[^`$]*)\$\{/g)) readFolders.add(near(prefix!));
    for (const [, specifier] of source.matchAll(/require\.resolve\(\s*['"]([^'"./][^'"]*)['"]/g)) packages.add(packageOf(specifier!));
    for (const imported of metafile.inputs[file]?.imports ?? []) {
      if (imported.external && !imported.path.startsWith('node:') && !imported.path.startsWith('.')) packages.add(packageOf(imported.path));
    }
  }
  return { modules, readFiles: [...readFiles].sort(), readFolders: [...readFolders].sort(), packages: [...packages].sort() };
}

/** The packages the installed command needs: the graph's, but tsx, the launcher's loader for sources without a compiled copy (the package has its copy). */
export const runtimePackages = (graph: GatewayGraph) => graph.packages.filter((p) => p !== 'tsx');

export interface PackedGateway {
  /** The tarball's path. */
  tarball: string;
  files: string[];
  dependencies: Record<string, string>;
  size: number;
  unpackedSize: number;
}

function npm(args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`npm ${args.join(' ')} failed (${code}): ${stderr.trim().slice(-2000)}`))));
  });
}

/** What is wrong with packing these files for this graph (modules or read files left out, packages that are not dependencies). */
export function packingProblems(files: ReadonlySet<string>, graph: GatewayGraph, dependencies: Record<string, string>): string[] {
  return [
    ...graph.modules.filter((m) => !files.has(m)).map((m) => `${m} is loaded by the command but left out by "files" in package.json`),
    ...graph.readFiles.filter((f) => !files.has(f)).map((f) => `${f} is read by the command but left out by "files"`),
    ...graph.readFolders.filter((d) => ![...files].some((f) => f.startsWith(d))).map((d) => `${d}* is read by the command but left out by "files"`),
    ...graph.packages.filter((p) => !dependencies[p]).map((p) => `${p} is imported by the command but is not in "dependencies"`),
  ];
}

/**
 * The command compiled into the staged package, under the folder the launcher looks in, named in
 * its `current.json` with the sources it was made from, each of which the package carries.
 */
async function compileInto(stage: string, files: ReadonlySet<string>): Promise<void> {
  const version = `package-${createHash('sha256')
    .update(
      [...files]
        .sort()
        .map((file) => readFileSync(path.join(ROOT, file)))
        .join('\0'),
    )
    .digest('hex')
    .slice(0, 12)}`;
  const current = await compileProgram(GATEWAY_ENTRIES, path.join(stage, PROGRAMS_DIR, version), version, stage);
  const missing = (JSON.parse(current) as { inputs: [string, string][] }).inputs.map(([file]) => file).filter((file) => !files.has(file));
  if (missing.length > 0) throw new Error(`the compiled command was made from files the package leaves out: ${missing.join(', ')}`);
  writeFileSync(path.join(stage, PROGRAMS_DIR, 'current.json'), current);
}

/** Packs the gateway into `destination` (npm pack of a staged copy); throws naming what is wrong. */
export async function packGateway(destination: string): Promise<PackedGateway> {
  const root = rootManifest();
  const [listed] = JSON.parse(await npm(['pack', '--dry-run', '--json', '--ignore-scripts'], ROOT)) as { files: { path: string }[] }[];
  // The manifest is written anew (its "files" list and the app's scripts do not go with it).
  const files = listed!.files.map((f) => f.path).filter((f) => f !== 'package.json');
  const graph = await gatewayGraph();
  const packages = runtimePackages(graph);
  const problems = packingProblems(new Set([...files, 'package.json']), { ...graph, packages }, root.dependencies);
  if (problems.length > 0) throw new Error(`the gateway package would not work:\n- ${problems.join('\n- ')}`);
  const dependencies = Object.fromEntries(packages.map((p) => [p, root.dependencies[p]!]));
  const stage = mkdtempSync(path.join(os.tmpdir(), 'gateway-package-'));
  try {
    for (const file of files) {
      mkdirSync(path.dirname(path.join(stage, file)), { recursive: true });
      copyFileSync(path.join(ROOT, file), path.join(stage, file));
    }
    await compileInto(stage, new Set(files));
    const manifest = {
      name: GATEWAY_PACKAGE,
      version: root.version,
      description: 'The self-hosted browser gateway and its command line (gateway serve, check, mcp, browse…)',
      type: 'module',
      bin: root.bin,
      engines: root.engines,
      dependencies,
    };
    writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const [packed] = JSON.parse(await npm(['pack', '--json', '--ignore-scripts', '--pack-destination', path.resolve(destination)], stage)) as {
      filename: string;
      files: { path: string }[];
      size: number;
      unpackedSize: number;
    }[];
    return {
      tarball: path.join(path.resolve(destination), packed!.filename),
      files: packed!.files.map((f) => f.path),
      dependencies,
      size: packed!.size,
      unpackedSize: packed!.unpackedSize,
    };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}
