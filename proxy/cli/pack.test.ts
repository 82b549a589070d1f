// The gateway command as a user gets it from a packed tarball: `npm pack` of this repository, the
// tarball installed with npm into a scratch project elsewhere (the repository's own node_modules out
// of reach), then the `gateway` bin run there through npx and directly. Before installing, the
// tarball's file list is checked against what the launcher loads: every local module of its import
// graph (as esbuild, tsx's compiler, resolves it), every file it reads beside its code, and every
// package it imports listed under "dependencies" (a devDependency is not installed with the tarball).
//
// The install is real: it reads the npm cache that the repository's `npm ci` filled (--prefer-offline)
// and takes about half a minute; its time is printed as a diagnostic.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { renderSkill } from './skill';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PKG = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  name: string; version: string; bin: Record<string, string>; dependencies: Record<string, string>;
};
const LAUNCHER = PKG.bin.gateway!;
const MINUTE = 60_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeout?: number }): Promise<Run> {
  const started = Date.now();
  const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], timeout: options.timeout ?? 5 * MINUTE });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
  });
}

const shown = (r: Run) => `exit ${r.code}\n--- stdout\n${r.stdout.slice(-4000)}\n--- stderr\n${r.stderr.slice(-4000)}`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The subset of esbuild's API used here (esbuild comes with tsx, resolved from tsx's own folder). */
interface Metafile {
  inputs: Record<string, { imports: { path: string; kind: string; external?: boolean }[] }>;
}
type Build = (options: Record<string, unknown>) => Promise<{ metafile: Metafile }>;

/** The package a bare import names (`@scope/name/sub` → `@scope/name`). */
const packageOf = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

describe('the packed tarball', { timeout: 15 * MINUTE }, () => {
  let scratch: string;
  let tarball: string;
  let packed: Set<string>;
  let app: string;
  let install: Promise<Run>;
  let packSummary: string;
  /** Environment of the installed command: a scratch HOME and data directory, npm's own settings kept. */
  let userEnv: NodeJS.ProcessEnv;

  before(async () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'gw-pack-'));
    // --ignore-scripts: `prepare` (prisma generate) would rewrite lib/db/generated under tests
    // running beside this one; the tarball leaves that folder out anyway.
    const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], { cwd: ROOT });
    assert.equal(pack.code, 0, `npm pack failed\n${shown(pack)}`);
    const [info] = JSON.parse(pack.stdout) as { filename: string; size: number; unpackedSize: number; entryCount: number; files: { path: string }[] }[];
    tarball = path.join(scratch, info!.filename);
    packed = new Set(info!.files.map((f) => f.path));
    packSummary = `npm pack: ${info!.entryCount} files, ${(info!.size / 1e6).toFixed(2)} MB packed, ${(info!.unpackedSize / 1e6).toFixed(2)} MB unpacked, ${seconds(pack.ms)}`;

    const config = await run('npm', ['config', 'get', 'cache', 'userconfig'], { cwd: scratch });
    const setting = (name: string) => new RegExp(`^${name}=(.*)$`, 'm').exec(config.stdout)?.[1];
    const home = path.join(scratch, 'home');
    mkdirSync(home);
    userEnv = {
      ...process.env, HOME: home, USERPROFILE: home, GW_DATA_DIR: path.join(scratch, 'gateway-data'), NO_COLOR: '1',
      npm_config_cache: setting('cache') ?? process.env.npm_config_cache, npm_config_userconfig: setting('userconfig') ?? process.env.npm_config_userconfig, npm_config_update_notifier: 'false',
    };

    app = path.join(scratch, 'app');
    mkdirSync(app);
    writeFileSync(path.join(app, 'package.json'), `${JSON.stringify({ name: 'gateway-pack-scratch', version: '1.0.0', private: true }, null, 2)}\n`);
    // Started here, awaited by the tests that need it, so the file-list test runs meanwhile.
    install = run('npm', ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund'], { cwd: app, timeout: 10 * MINUTE });
    install.catch(() => {}); // awaited (and reported) by the tests
  });

  after(async () => {
    await install?.catch(() => {});
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  test('holds what the launcher loads and reads, leaves the rest out, and its imports are dependencies', async (t) => {
    t.diagnostic(packSummary);
    const requireFromTsx = createRequire(import.meta.resolve('tsx/esm/api'));
    const { build } = requireFromTsx('esbuild') as { build: Build };
    const { metafile } = await build({
      entryPoints: [path.join(ROOT, LAUNCHER)], absWorkingDir: ROOT, tsconfig: path.join(ROOT, 'tsconfig.json'),
      bundle: true, write: false, metafile: true, platform: 'node', format: 'esm', packages: 'external', logLevel: 'silent', outdir: path.join(scratch, 'graph'),
    });
    const modules = Object.keys(metafile.inputs).map((file) => file.split(path.sep).join('/'));
    assert.ok(modules.includes('proxy/cli/main.ts'), `the graph reaches main.ts: ${modules.join(', ')}`);
    assert.deepEqual(modules.filter((file) => !packed.has(file)), [], 'modules the gateway command loads are missing from the tarball ("files" in package.json)');

    // Files read next to the code: new URL('<relative>', import.meta.url), and template paths by folder.
    const missing: string[] = [];
    const packages = new Set<string>();
    for (const file of modules) {
      const source = readFileSync(path.join(ROOT, file), 'utf8');
      for (const [, relative] of source.matchAll(/new URL\(\s*['"`](\.{1,2}\/[^'"`$]+)['"`]\s*,\s*import\.meta\.url\s*\)/g)) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), relative!));
        if (!packed.has(target)) missing.push(`${target} (read by ${file})`);
      }
      for (const [, prefix] of source.matchAll(/new URL\(\s*`(\.{1,2}\/[^`$]*)\$\{/g)) {
        const folder = path.posix.normalize(path.posix.join(path.posix.dirname(file), prefix!));
        if (![...packed].some((p) => p.startsWith(folder))) missing.push(`${folder}* (read by ${file})`);
      }
      for (const [, specifier] of source.matchAll(/require\.resolve\(\s*['"]([^'"./][^'"]*)['"]/g)) packages.add(packageOf(specifier!));
      for (const imported of metafile.inputs[file]?.imports ?? []) {
        if (imported.external && !imported.path.startsWith('node:') && !imported.path.startsWith('.')) packages.add(packageOf(imported.path));
      }
    }
    assert.deepEqual(missing, [], 'files the gateway command reads are missing from the tarball');
    assert.ok(packages.has('tsx'), 'the launcher imports tsx');
    assert.deepEqual([...packages].filter((name) => !PKG.dependencies[name]).sort(), [], 'packages the gateway command imports must be "dependencies" (devDependencies are not installed with the tarball)');

    assert.ok(packed.has('package.json') && packed.has(LAUNCHER) && packed.has('tsconfig.json'));
    const stray = [...packed].filter((p) => /\.test\.ts$/.test(p) || /^(app|components|e2e|bench|scripts|prisma|node_modules|lib\/db\/generated)\//.test(p));
    assert.deepEqual(stray, [], 'tests, the web app, tooling and generated code stay out of the tarball');
  });

  test('installs elsewhere with npm (no install script of its own runs)', { timeout: 11 * MINUTE }, async (t) => {
    const done = await install;
    t.diagnostic(`npm install <tarball>: ${seconds(done.ms)}`);
    assert.equal(done.code, 0, `npm install of the tarball failed\n${shown(done)}`);
    assert.ok(existsSync(path.join(app, 'node_modules', PKG.name, LAUNCHER)), 'the package is installed');
    assert.ok(!existsSync(path.join(app, 'node_modules', 'prisma')), 'devDependencies are not installed with it');
    assert.ok(existsSync(path.join(app, 'node_modules', '.bin', 'gateway')), 'npm linked the gateway bin');
  });

  test('npx gateway: version, help, skills, and the exit code of a usage error', { timeout: 5 * MINUTE }, async (t) => {
    assert.equal((await install).code, 0, 'installed');
    const npx = (...args: string[]) => run('npx', ['--no-install', 'gateway', ...args], { cwd: app, env: userEnv, timeout: 2 * MINUTE });

    const version = await npx('version');
    t.diagnostic(`npx gateway version: ${seconds(version.ms)}`);
    assert.equal(version.code, 0, shown(version));
    assert.equal(version.stdout.trim(), PKG.version);

    const help = await npx('--help');
    assert.equal(help.code, 0, shown(help));
    assert.match(help.stdout, /^Usage: gateway /m);
    for (const command of ['check', 'login', 'logout', 'whoami', 'skills', 'version', 'help']) assert.match(help.stdout, new RegExp(`^  ${command}\\b`, 'm'), `help lists ${command}`);

    const dir = path.join(scratch, 'skills-out');
    const skills = await npx('skills', '--dir', dir);
    assert.equal(skills.code, 0, shown(skills));
    assert.equal(skills.stdout.trim(), `Wrote ${path.join(dir, 'SKILL.md')}`);
    assert.equal(readFileSync(path.join(dir, 'SKILL.md'), 'utf8'), renderSkill(), 'the installed command writes the same SKILL.md as this checkout');

    const unknown = await npx('no-such-command');
    assert.equal(unknown.code, 2, shown(unknown));
    assert.match(unknown.stderr, /unknown command 'no-such-command'/);
    assert.ok(!existsSync(path.join(userEnv.GW_DATA_DIR!, 'credentials.json')), 'nothing saved');
  });

  test("a tsconfig.json in the working directory is not the launcher's", { timeout: 5 * MINUTE }, async () => {
    assert.equal((await install).code, 0, 'installed');
    // Its `paths` send `commander` to a module without the names the command imports: a launcher
    // that let tsx read it would fail to link main.ts.
    const hostile = (dir: string) => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { paths: { commander: ['./not-commander.ts'] } } }));
      writeFileSync(path.join(dir, 'not-commander.ts'), 'export const picked = "the tsconfig.json of the working directory";\n');
    };

    // The installed bin, run from an unrelated folder.
    const elsewhere = path.join(scratch, 'elsewhere');
    hostile(elsewhere);
    const bin = await run(path.join(app, 'node_modules', '.bin', 'gateway'), ['version'], { cwd: elsewhere, env: userEnv });
    assert.equal(bin.code, 0, shown(bin));
    assert.equal(bin.stdout.trim(), PKG.version);

    // The tarball unpacked as a checkout sits (outside node_modules, where tsx does apply a
    // tsconfig's paths), run from a folder above it that has its own tsconfig.json.
    const above = path.join(scratch, 'above');
    hostile(above);
    const unpacked = await run('tar', ['-xzf', tarball, '-C', above], { cwd: above });
    assert.equal(unpacked.code, 0, shown(unpacked));
    const checkout = path.join(above, 'package');
    symlinkSync(path.join(app, 'node_modules'), path.join(checkout, 'node_modules'), 'dir');
    const launched = await run(process.execPath, [path.join(checkout, LAUNCHER), 'version'], { cwd: above, env: userEnv });
    assert.equal(launched.code, 0, shown(launched));
    assert.equal(launched.stdout.trim(), PKG.version);

    // The same with tsx left to find a tsconfig itself: proof that this folder's tsconfig.json would break it.
    const naive = path.join(checkout, path.dirname(LAUNCHER), 'naive-launcher.mjs');
    writeFileSync(naive, "import { register } from 'tsx/esm/api';\nregister();\nconst { main } = await import('./main.ts');\nprocess.exitCode = await main(process.argv.slice(2));\n");
    const control = await run(process.execPath, [naive, 'version'], { cwd: above, env: userEnv });
    assert.notEqual(control.code, 0, `a launcher that lets tsx read the working directory's tsconfig.json breaks here\n${shown(control)}`);
    assert.match(control.stderr, /commander/, shown(control));
  });
});
