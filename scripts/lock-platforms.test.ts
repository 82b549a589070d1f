import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { completeLock, platformOf } from './lock-platforms';

test('platform packages are read off their names', () => {
  assert.deepEqual(platformOf('@next/swc-darwin-arm64'), { os: ['darwin'], cpu: ['arm64'] });
  assert.deepEqual(platformOf('@tailwindcss/oxide-linux-x64-musl'), { os: ['linux'], cpu: ['x64'], libc: ['musl'] });
  assert.deepEqual(platformOf('@tailwindcss/oxide-wasm32-wasi'), { cpu: ['wasm32'] });
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
  assert.deepEqual(lock.packages['node_modules/tool-darwin-arm64' as keyof typeof lock.packages], { version: '1.0.0', os: ['darwin'], cpu: ['arm64'], dev: true, optional: true });
  assert.deepEqual(completeLock(lock), []);
});

test('the committed lock is complete, so npm ci accepts it on a clean machine', () => {
  const lock = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '..', 'package-lock.json'), 'utf8'));
  assert.deepEqual(completeLock(lock), [], 'run npm run lock:platforms and commit package-lock.json');
});
