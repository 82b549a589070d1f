// The gateway's token rules over a real socket (access.ts): "Bearer" in any case; wrong tokens
// throttled per address as the hosted proxy's router keys are (429 with Retry-After, the right
// token still passing); off loopback a short token refused at start, before anything listens.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { FAILURES_PER_WINDOW } from '../auth/failure-throttle';
import { MIN_REMOTE_TOKEN_CHARS } from './access';
import { parseConfig } from './config';
import { startGateway, type Gateway } from './server';

const TOKEN = 'gw_access_token_0123456789abcdef';
const config = parseConfig('providers:\n  gone: { url: "ws://127.0.0.1:9/devtools/browser/x" }\n', { env: {} });
let dataDir: string;
let gateway: Gateway;
before(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'gw-access-'));
  gateway = await startGateway({ config, env: { GW_TOKEN: TOKEN, HOST: '127.0.0.1' }, dataDir, port: 0 });
});
after(async () => {
  await gateway?.shutdown();
  rmSync(dataDir, { recursive: true, force: true });
});

const status = (authorization?: string) => fetch(`${gateway.url}/v1/status`, { headers: authorization ? { authorization } : {} });

test('the auth scheme is read in any case', async () => {
  for (const scheme of ['Bearer', 'bearer', 'BEARER']) assert.equal((await status(`${scheme} ${TOKEN}`)).status, 200, scheme);
});

test('wrong tokens from one address: 401 until the limit, then 429 with Retry-After; the right token still passes', async () => {
  for (let i = 0; i < FAILURES_PER_WINDOW; i++) {
    const refused = await status(`Bearer wrong-${i}`);
    assert.equal(refused.status, 401, `attempt ${i + 1}`);
    assert.equal(refused.headers.get('www-authenticate'), 'Bearer');
  }
  const throttled = await status('Bearer wrong-again');
  assert.equal(throttled.status, 429);
  assert.ok(Number(throttled.headers.get('retry-after')) > 0);
  assert.equal(((await throttled.json()) as { error: string }).error.includes('wrong-again'), false, 'the token is not echoed');
  assert.equal((await status(`Bearer ${TOKEN}`)).status, 200, 'the right token from a throttled address');
});

test(`off loopback a token under ${MIN_REMOTE_TOKEN_CHARS} characters is refused at start, saying why; on loopback it is taken`, async () => {
  const short = 'x'.repeat(MIN_REMOTE_TOKEN_CHARS - 1);
  await assert.rejects(startGateway({ config, env: { GW_TOKEN: short, HOST: '0.0.0.0' }, dataDir, port: 0 }), (error: Error) => {
    assert.match(
      error.message,
      new RegExp(`GW_TOKEN has ${short.length} characters; a gateway bound to 0\\.0\\.0\\.0 .* needs at least ${MIN_REMOTE_TOKEN_CHARS}`),
    );
    assert.equal(error.message.includes(short), false, 'the token is not echoed');
    return true;
  });
  const local = await startGateway({
    config,
    env: { GW_TOKEN: short, HOST: '127.0.0.1' },
    dataDir: mkdtempSync(path.join(os.tmpdir(), 'gw-access-')),
    port: 0,
  });
  await local.shutdown();
});

test('all interfaces: the address shown is one a client can dial, not the wildcard', async () => {
  const wide = await startGateway({ config, env: { GW_TOKEN: TOKEN, HOST: '0.0.0.0' }, dataDir: mkdtempSync(path.join(os.tmpdir(), 'gw-access-')), port: 0 });
  try {
    assert.doesNotMatch(wide.url, /0\.0\.0\.0/);
    assert.equal((await fetch(`${wide.url}/v1/status`, { headers: { authorization: `Bearer ${TOKEN}` } })).status, 200, `dialled at ${wide.url}`);
  } finally {
    await wide.shutdown();
  }
});
