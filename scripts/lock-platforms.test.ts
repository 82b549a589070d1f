import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { completeLock, npmLockText, platformOf } from './lock-platforms';

test('platform packages are read off their names', () => {
  assert.deepEqual(platformOf('@next/swc-darwin-arm64'), { os: ['darwin'], cpu: ['arm64'] });
  assert.deepEqual(platformOf('@tailwindcss/oxide-linux-x64-musl'), { os: ['linux'], cpu: ['x64'], libc: ['musl'] });
  assert.deepEqual(platformOf('@tailwindcss/oxide-wasm32-wasi'), { cpu: ['wasm32'] });
  assert.deepEqual(platformOf('@unrs/resolver-binding-openharmony-arm64'), { os: ['openharmony'], cpu: ['arm64'] });
  assert.deepEqual(platformOf('@unrs/resolver-binding-linux-arm-musleabihf'), { os: ['linux'], cpu: ['arm'], libc: ['musl'] });
  assert.equal(platformOf('sharp'), null);
});

test('a missing foreign-platform optional dependency is added, restricted to its platform', () => {
  const lock = {
    packages: {
      '': { name: 'app' },
      'node_modules/tool': { version: '1.0.0', dev: true, optionalDependencies: { 'tool-darwin-arm64': '1.0.0', 'tool-linux-x64-gnu': '1.0.0' } },
      'node_modules/tool-linux-x64-gnu': { version: '1.0.0', optional: true },
    },
  };
  assert.deepEqual(completeLock(lock), ['tool-darwin-arm64@1.0.0']);
  assert.deepEqual(lock.packages['node_modules/tool-darwin-arm64' as keyof typeof lock.packages], {
    version: '1.0.0',
    os: ['darwin'],
    cpu: ['arm64'],
    dev: true,
    optional: true,
  });
  assert.deepEqual(completeLock(lock), []);
});

test('the committed lock is complete, so npm ci accepts it on a clean machine', () => {
  const lock = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '..', 'package-lock.json'), 'utf8'));
  assert.deepEqual(completeLock(lock), [], 'run npm run lock:platforms and commit package-lock.json');
});

// A fresh clone is installed with `npm ci` (README), which installs the lock as committed and never
// writes it, under npm 10 (which Node 20 and 22 ship) or npm 11 (checked: `npx npm@10 ci` on a
// fresh clone). `npm install` under npm 11 leaves the lock as committed; npm 10 would rewrite it
// (it drops every `libc` field and marks some entries `dev` instead of `devOptional`), so the lock
// is kept in the form npm 11 writes, which these tests check.
const root = path.resolve(import.meta.dirname, '..');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8'));

test('any npm installs it: no npm version is required, and the README installs with npm ci, which never writes the lock', () => {
  const pkg = readJson('package.json');
  assert.equal(pkg.devEngines, undefined);
  assert.equal(pkg.engines?.npm, undefined);
  assert.match(readFileSync(path.join(root, 'README.md'), 'utf8'), /```sh\nnpm ci\nnpm start\n```/);
  assert.equal(readJson('package-lock.json').lockfileVersion, 3);
});

test("the lock's root entry mirrors package.json, so npm install has nothing to rewrite there", () => {
  const pkg = readJson('package.json');
  const rootEntry = readJson('package-lock.json').packages[''];
  for (const field of ['name', 'version', 'dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies', 'engines']) {
    assert.deepEqual(rootEntry[field], pkg[field], `package-lock.json's root "${field}" differs from package.json: run npm install`);
  }
});

test("installed packages' os, cpu and libc are in the lock as npm 11 writes them", () => {
  const lock = readJson('package-lock.json');
  const differing: string[] = [];
  for (const [key, entry] of Object.entries(lock.packages as Record<string, { os?: string[]; cpu?: string[]; libc?: string[] }>)) {
    const manifest = path.join(root, key, 'package.json');
    if (key === '' || !existsSync(manifest)) continue; // not installed on this platform
    const installed = JSON.parse(readFileSync(manifest, 'utf8')) as { os?: string[]; cpu?: string[]; libc?: string[] };
    for (const field of ['os', 'cpu', 'libc'] as const) {
      if (JSON.stringify(installed[field] ?? null) !== JSON.stringify(entry[field] ?? null)) differing.push(`${key} ${field}`);
    }
  }
  assert.deepEqual(differing, [], 'the lock was written by another npm: run npm install with npm 11');
});

test('npmLockText orders keys as npm does: its preferred keys, then by name, objects last', () => {
  const entry = {
    version: '1.0.0',
    os: ['darwin'],
    cpu: ['arm64'],
    optional: true,
    dev: true,
    license: 'MIT',
    engines: { node: '>=18' },
    integrity: 'sha512-x',
  };
  assert.equal(
    npmLockText({ packages: { 'node_modules/b': entry, 'node_modules/a': { version: '2.0.0' } }, lockfileVersion: 3, name: 'app' }),
    `${JSON.stringify(
      {
        name: 'app',
        lockfileVersion: 3,
        packages: {
          'node_modules/a': { version: '2.0.0' },
          'node_modules/b': {
            version: '1.0.0',
            integrity: 'sha512-x',
            cpu: ['arm64'],
            dev: true,
            license: 'MIT',
            optional: true,
            os: ['darwin'],
            engines: { node: '>=18' },
          },
        },
      },
      null,
      2,
    )}\n`,
  );
});

test('the committed lock is byte for byte what npm writes, so npm install leaves it unchanged', () => {
  const text = readFileSync(path.join(root, 'package-lock.json'), 'utf8');
  assert.ok(text === npmLockText(JSON.parse(text)), "package-lock.json is not in npm's key order: run npm run lock:platforms (or npm install)");
});

// npm 11 installs the lock in every CI run (.ci/run). npm 10, which Node 20 and 22 ship, is fetched
// from the registry (the one network these machines reach) and checks the same lock: `npm ci`
// refuses a lock it finds out of step with package.json, before it downloads anything.
test('npm 10 accepts the lock too: npm@10 ci (a dry run on a copy of package.json and the lock) plans the install', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'br-npm10-'));
  try {
    for (const file of ['package.json', 'package-lock.json']) copyFileSync(path.join(root, file), path.join(dir, file));
    const npm10 = (args: string[]) =>
      promisify(execFile)('npx', ['--yes', 'npm@10', ...args], {
        cwd: dir,
        env: { ...process.env, npm_config_update_notifier: 'false' },
        maxBuffer: 16 * 1024 * 1024,
      });
    assert.match((await npm10(['--version'])).stdout, /^10\./);
    const { stdout } = await npm10(['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund']);
    const planned = Number(/added (\d+) packages/.exec(stdout)?.[1]);
    assert.ok(planned > 100, `npm 10 planned no install:\n${stdout.slice(-2_000)}`);
    assert.equal(readFileSync(path.join(dir, 'package-lock.json'), 'utf8'), readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
