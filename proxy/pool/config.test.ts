import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { deriveCapacity } from './capacity';
import { checkExposure, readPoolConfig } from './config';

const GB = 1024 ** 3;

test('capacity: two browsers per core, ~400 MB each after 1 GB for the rest, at least one', () => {
  assert.equal(deriveCapacity({ cores: 2, memoryBytes: 24 * GB }), 4); // CPU-bound: this machine
  assert.equal(deriveCapacity({ cores: 16, memoryBytes: 8 * GB }), 17); // memory-bound: (8 − 1) GB / 400 MB
  assert.equal(deriveCapacity({ cores: 1, memoryBytes: 1 * GB }), 1);
  assert.equal(deriveCapacity({ cores: 0.5, memoryBytes: 4 * GB }), 1); // a CPU quota of half a core
});

const withToken = { POOL_TOKEN: 'a-token-from-the-environment' };

test('settings from the environment, POOL_CAPACITY wins over the machine', () => {
  const config = readPoolConfig({ ...withToken, POOL_CAPACITY: '3', POOL_PORT: '0', DATA_DIR: '/tmp/x' });
  assert.equal(config.capacity, 3);
  assert.equal(config.capacityFrom, 'POOL_CAPACITY');
  assert.equal(config.port, 0);
  assert.equal(config.dataDir, '/tmp/x');
  assert.equal(readPoolConfig(withToken).port, 9600);
  assert.equal(readPoolConfig(withToken).host, '127.0.0.1');
  assert.equal(readPoolConfig(withToken).isolation, 'sandbox');
  assert.equal(readPoolConfig(withToken).uidBase, 10_000);
  assert.equal(readPoolConfig({ ...withToken, POOL_ISOLATION: 'none', POOL_UID_BASE: '200000' }).isolation, 'none');
  assert.equal(readPoolConfig({ ...withToken, POOL_UID_BASE: '200000' }).uidBase, 200_000);
  assert.throws(() => readPoolConfig({ ...withToken, POOL_ISOLATION: 'off' }), /POOL_ISOLATION must be one of "sandbox", "none", got "off"/);
  assert.throws(() => readPoolConfig({ ...withToken, POOL_UID_BASE: '0' }), /POOL_UID_BASE must be a whole number from 1000 to 4000000000, got "0"/);
  assert.throws(() => readPoolConfig({ ...withToken, POOL_CAPACITY: '0' }), /POOL_CAPACITY must be a whole number from 1 to 1000, got "0"/);
  // Every bad one at once.
  assert.throws(
    () => readPoolConfig({ ...withToken, POOL_CAPACITY: 'x', POOL_LAUNCH_TIMEOUT_MS: '-5' }),
    /POOL_CAPACITY must be .*; POOL_LAUNCH_TIMEOUT_MS must be a whole number of milliseconds/,
  );
});

test('the token: POOL_TOKEN, else the one kept in <DATA_DIR>/secrets.json (generated there once)', () => {
  assert.deepEqual([readPoolConfig(withToken).token, readPoolConfig(withToken).tokenFrom], ['a-token-from-the-environment', 'POOL_TOKEN']);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pool-config-'));
  try {
    const saved = process.env.POOL_TOKEN;
    delete process.env.POOL_TOKEN;
    try {
      const first = readPoolConfig({ DATA_DIR: dataDir });
      assert.equal(first.tokenFrom, 'secrets.json');
      assert.ok(first.token.length >= 32);
      assert.equal(JSON.parse(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')).poolToken, first.token);
      assert.equal(readPoolConfig({ DATA_DIR: dataDir }).token, first.token, 'kept, not regenerated');
    } finally {
      if (saved !== undefined) process.env.POOL_TOKEN = saved;
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('never without a token; another machine gets a long one only', () => {
  for (const host of ['127.0.0.1', '0.0.0.0']) assert.match(checkExposure({ host, token: '' })!, /refusing to start without a token/, host);
  for (const host of ['127.0.0.1', 'localhost', '::1', '127.0.0.2']) assert.equal(checkExposure({ host, token: 'short' }), undefined, host);
  for (const host of ['0.0.0.0', '::', '192.168.1.10']) assert.match(checkExposure({ host, token: 'short' })!, /refusing to listen/, host);
  assert.equal(checkExposure({ host: '0.0.0.0', token: 'a-long-enough-random-token' }), undefined);
});
