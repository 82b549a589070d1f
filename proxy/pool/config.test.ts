import assert from 'node:assert/strict';
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

test('settings from the environment, POOL_CAPACITY wins over the machine', () => {
  const config = readPoolConfig({ POOL_CAPACITY: '3', POOL_PORT: '0', DATA_DIR: '/tmp/x' });
  assert.equal(config.capacity, 3);
  assert.equal(config.capacityFrom, 'POOL_CAPACITY');
  assert.equal(config.port, 0);
  assert.equal(config.dataDir, '/tmp/x');
  assert.equal(readPoolConfig({}).port, 9600);
  assert.equal(readPoolConfig({}).host, '127.0.0.1');
  assert.throws(() => readPoolConfig({ POOL_CAPACITY: '0' }), /POOL_CAPACITY must be a positive integer/);
});

test('no token: loopback only, unless explicitly allowed', () => {
  const open = { allowUnauthenticated: false, token: undefined };
  for (const host of ['127.0.0.1', 'localhost', '::1', '127.0.0.2']) assert.equal(checkExposure({ ...open, host }), undefined, host);
  for (const host of ['0.0.0.0', '::', '192.168.1.10']) assert.match(checkExposure({ ...open, host })!, /refusing to listen/, host);
  assert.equal(checkExposure({ ...open, host: '0.0.0.0', token: 't' }), undefined);
  assert.equal(checkExposure({ ...open, host: '0.0.0.0', allowUnauthenticated: true }), undefined);
});
