// `gateway check` as a user runs it (the real launcher in a child process, scratch HOME and
// GW_DATA_DIR) against a real WebSocket server that answers CDP and a closed port.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { after, test } from 'node:test';
import { WebSocketServer } from 'ws';
import { runGateway as gateway, scratch as scratchOf } from './testing';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function scratch(): { home: string; env: Record<string, string> } {
  const env = scratchOf(dirs);
  return { home: env.HOME!, env };
}

test('check: one line per provider, OK with latency or FAIL with the reason, the count, exit code 0 only when all answer', async () => {
  // A provider that answers CDP (Browser.getVersion) and one whose port is closed.
  const browser = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  browser.on('connection', (socket) =>
    socket.on('message', (data) => {
      const { id } = JSON.parse(String(data)) as { id: number };
      socket.send(JSON.stringify({ id, result: { product: 'HeadlessChrome/130.0.0.0', protocolVersion: '1.3' } }));
    }),
  );
  await new Promise((resolve) => browser.once('listening', resolve));
  const closed = net.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const deadPort = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  try {
    const { home, env } = scratch();
    const live = `ws://127.0.0.1:${(browser.address() as AddressInfo).port}/devtools/browser/x`;
    const file = path.join(home, 'gateway.yml');
    writeFileSync(file, `providers:\n  local:\n    url: \${LIVE_URL}\n  dead:\n    url: ws://127.0.0.1:${deadPort}/devtools/browser/y\n`);
    const mixed = await gateway(['check', '--config', file], { ...env, LIVE_URL: live });
    assert.equal(mixed.code, 1, mixed.stderr);
    assert.match(mixed.stdout, /^OK {3}local {2}\d+ ms$/m);
    assert.match(mixed.stdout, /^FAIL dead {3}\S.*refused/m);
    assert.match(mixed.stdout, /^1 of 2 providers reachable$/m);

    writeFileSync(file, `providers:\n  local:\n    url: ${live}\n`);
    const good = await gateway(['check', '--config', file], env);
    assert.equal(good.code, 0, good.stderr);
    assert.match(good.stdout, /^1 of 1 provider reachable$/m);

    // The file found through GW_CONFIG_PATH; a mistake in it is named with its line.
    writeFileSync(file, `providers:\n  local:\n    url: ${live}\n    limits:\n      maxConcurrent: three\n`);
    const wrong = await gateway(['check'], { ...env, GW_CONFIG_PATH: file });
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /gateway\.yml:5: providers\.local\.limits\.maxConcurrent/);

    const nowhere = await gateway(['check'], env);
    assert.equal(nowhere.code, 1);
    assert.match(nowhere.stderr, /no gateway\.yml found; looked in:/);
  } finally {
    await new Promise((resolve) => browser.close(resolve));
  }
});

test('check: a file with no providers has nothing to check, and that is not a failure', async () => {
  const { home, env } = scratch();
  const file = path.join(home, 'gateway.yml');
  writeFileSync(file, 'gateway:\n  name: empty\nproviders:\n');
  const run = await gateway(['check', '--config', file], env);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, `0 providers in ${file}: nothing to check\n`);
});
