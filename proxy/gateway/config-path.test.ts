// Where gateway.yml is looked for (--config, GW_CONFIG_PATH, the data directory, ./gateway.yml)
// and which directory is the data directory.
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { findConfigPath, gatewayDataDir } from './config';

describe('findConfigPath', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'gw-config-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  const cwd = path.join(root, 'work');
  const dataDir = path.join(root, 'data');
  mkdirSync(cwd);
  mkdirSync(dataDir);

  test('--config, then GW_CONFIG_PATH, then the data directory, then ./gateway.yml', () => {
    const env = { GW_CONFIG_PATH: 'from-env.yml' };
    assert.deepEqual(findConfigPath({ flag: 'flag.yml', env, cwd, dataDir }), { found: true, path: path.join(cwd, 'flag.yml'), source: 'flag' });
    assert.deepEqual(findConfigPath({ env, cwd, dataDir }), { found: true, path: path.join(cwd, 'from-env.yml'), source: 'env' });
    assert.deepEqual(findConfigPath({ env: { GW_CONFIG_PATH: '/abs/gw.yml' }, cwd, dataDir }), { found: true, path: '/abs/gw.yml', source: 'env' });

    assert.deepEqual(findConfigPath({ env: {}, cwd, dataDir }), {
      found: false,
      searched: [path.join(dataDir, 'gateway.yml'), path.join(cwd, 'gateway.yml')],
    });
    writeFileSync(path.join(cwd, 'gateway.yml'), '');
    assert.deepEqual(findConfigPath({ env: {}, cwd, dataDir }), { found: true, path: path.join(cwd, 'gateway.yml'), source: 'cwd' });
    writeFileSync(path.join(dataDir, 'gateway.yml'), '');
    assert.deepEqual(findConfigPath({ env: {}, cwd, dataDir }), { found: true, path: path.join(dataDir, 'gateway.yml'), source: 'data-dir' });
  });

  test('an explicitly named file is returned even when missing, so loading it fails loudly', () => {
    assert.deepEqual(findConfigPath({ flag: 'typo.yml', env: {}, cwd, dataDir }), { found: true, path: path.join(cwd, 'typo.yml'), source: 'flag' });
    assert.deepEqual(findConfigPath({ env: { GW_CONFIG_PATH: 'typo.yml' }, cwd, dataDir }), { found: true, path: path.join(cwd, 'typo.yml'), source: 'env' });
  });

  test('an empty flag or variable counts as unset', () => {
    assert.equal(findConfigPath({ flag: '', env: { GW_CONFIG_PATH: '' }, cwd, dataDir }).found, true);
    assert.equal((findConfigPath({ flag: '', env: { GW_CONFIG_PATH: '' }, cwd, dataDir }) as { source: string }).source, 'data-dir');
  });
});

describe('gatewayDataDir', () => {
  const host = { home: '/home/ada', inDocker: false, cwd: '/srv' };
  test('GW_DATA_DIR wins, relative to the working directory', () => {
    assert.equal(gatewayDataDir({ GW_DATA_DIR: '/var/lib/gw' }, { ...host, inDocker: true }), '/var/lib/gw');
    assert.equal(gatewayDataDir({ GW_DATA_DIR: 'state' }, host), '/srv/state');
  });
  test('/data in Docker', () => {
    assert.equal(gatewayDataDir({}, { ...host, inDocker: true }), '/data');
  });
  test('~/.browser-gateway elsewhere', () => {
    assert.equal(gatewayDataDir({}, host), '/home/ada/.browser-gateway');
    assert.equal(gatewayDataDir({ GW_DATA_DIR: '' }, host), '/home/ada/.browser-gateway');
  });
});
