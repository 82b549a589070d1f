// `gateway mcp` taking its browsers through a gateway: one started inside the process (the internal
// gateway) from a gateway.yml (--config), or with --cdp-endpoint as its only provider (with --port,
// or with --config in place of the file's providers); or a running gateway's connect URL
// (--cdp-endpoint, ws:// or http://). A busy port is one line naming --port. The launcher runs as a
// child process spoken to over stdio by the MCP SDK's client (testing.ts), against a real Chromium
// and a local site.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { launchChromium, type Chromium } from '../../e2e/support/chromium';
import { startTestSite, type TestSite } from '../../e2e/support/test-site';
import { freePort } from '../../scripts/lib/ports';
import { startGateway } from '../gateway/server';
import { readGatewayConfig } from './gateway-config';
import { agent, completeForm, runGateway, scratch as scratchOf, until } from './testing';

const SLOW = { timeout: 90_000 };

let browser: Chromium;
let site: TestSite;
const paths: string[] = [];
const scratch = () => scratchOf(paths);

before(async () => {
  [browser, site] = await Promise.all([launchChromium(), startTestSite()]);
});
after(async () => {
  await Promise.all([browser?.stop(), site?.close()]);
  for (const dir of paths) rmSync(dir, { recursive: true, force: true });
});

/** The providers of the gateway at `base`, by id, with their sessions running now. */
async function providersAt(base: string): Promise<[string, number][]> {
  const status = (await (await fetch(`${base}/v1/status`)).json()) as { providers: { id: string; active: number }[] };
  return status.providers.map((p) => [p.id, p.active]);
}

/** The page tabs of the test's browser, by id. */
async function pageIds(): Promise<string[]> {
  const targets = (await (await fetch(`${browser.httpUrl}/json/list`)).json()) as { id: string; type: string }[];
  return targets
    .filter((t) => t.type === 'page')
    .map((t) => t.id)
    .sort();
}

test('--config: the browsers come through a gateway of that file started inside the process, with its routing', SLOW, async () => {
  const env = scratch();
  const file = path.join(env.HOME!, 'gateway.yml');
  writeFileSync(
    file,
    `providers:\n  down: { url: "ws://127.0.0.1:9/devtools/browser/x", priority: 1 }\n  chrome: { url: "${browser.httpUrl}", priority: 2, limits: { maxConcurrent: 1 } }\ngateway: { defaultStrategy: priority-chain }\n`,
  );
  const a = await agent(['--config', file, '--port', String(await freePort())], env);
  try {
    await until('the gateway address', () => /through a gateway at http/.test(a.stderr()));
    const base = /through a gateway at (http:\/\/127\.0\.0\.1:\d+)/.exec(a.stderr())![1]!;
    const opened = await a.tool('browser_session', { action: 'open' });
    assert.equal(opened.error, false, opened.text);
    const status = (await (await fetch(`${base}/v1/status`)).json()) as { providers: { id: string; active: number; healthy: boolean }[] };
    assert.deepEqual(
      status.providers.map((p) => [p.id, p.active]),
      [
        ['down', 0],
        ['chrome', 1],
      ],
      'failed over to chrome',
    );
    await completeForm(a, site.url);
  } finally {
    await a.client.close();
  }
});

test(
  "--cdp-endpoint with a gateway's connect URL, ws:// or http://: each session is a connect through that gateway, with what the agent asked for; with --port, through the internal gateway too",
  SLOW,
  async () => {
    const env = scratch();
    const file = path.join(env.HOME!, 'gateway.yml');
    writeFileSync(file, `providers:\n  chrome: { url: "${browser.httpUrl}", priority: 1 }\n`);
    const { config, dataDir } = await readGatewayConfig(file, env);
    const token = 'gw_test_token_0123456789abcdef';
    const gateway = await startGateway({ config, env: { GW_TOKEN: token, HOST: '127.0.0.1' }, dataDir, port: 0 });
    const active = async () =>
      ((await (await fetch(`${gateway.url}/v1/status?token=${token}`)).json()) as { providers: { active: number }[] }).providers[0]!.active;
    const connect = `${gateway.url.replace(/^http/, 'ws')}/v1/connect?token=${token}`;
    try {
      for (const given of [connect, connect.replace(/^ws/, 'http')]) {
        const a = await agent(['--cdp-endpoint', given], env);
        try {
          // The profile goes to the gateway, which refuses that name in its own words.
          const refused = await a.tool('browser_session', { action: 'open', profile: 'not a name' });
          assert.equal(refused.error, true);
          assert.match(refused.text, /400 .*profile must be 1 to 64 letters/);
          const opened = await a.tool('browser_session', { action: 'open' });
          assert.equal(opened.error, false, opened.text);
          assert.equal(await active(), 1, "the session is the gateway's");
          if (given === connect) await completeForm(a, site.url);
          else assert.match((await a.tool('browser_navigate', { url: `${site.url}/agent/form` })).text, /Page: "Sign up"/);
          assert.match((await a.tool('browser_session', { action: 'close' })).text, /Closed browser br_/);
          await until("the gateway's session ended", async () => (await active()) === 0);
          assert.match(a.stderr(), /browsers: --cdp-endpoint (ws|http):\/\/127\.0\.0\.1:\d+\/v1\/connect\?token=gw_t…ef/);
          assert.ok(!a.stderr().includes(token), 'the token is not shown');
          assert.deepEqual(a.errors, []);
        } finally {
          await a.client.close();
        }
      }
      // With --port, the connect URL is the internal gateway's only provider, dialled as given.
      const port = await freePort();
      const a = await agent(['--cdp-endpoint', connect, '--port', String(port)], env);
      try {
        const opened = await a.tool('browser_session', { action: 'open' });
        assert.equal(opened.error, false, opened.text);
        assert.deepEqual(await providersAt(`http://127.0.0.1:${port}`), [['cdp-endpoint', 1]]);
        assert.equal(await active(), 1, 'through the running gateway');
        assert.match((await a.tool('browser_navigate', { url: `${site.url}/agent/form` })).text, /Page: "Sign up"/);
        assert.match((await a.tool('browser_session', { action: 'close' })).text, /Closed browser br_/);
        await until("the running gateway's session ended", async () => (await active()) === 0);
        assert.ok(!a.stderr().includes(token), 'the token is not shown');
      } finally {
        await a.client.close();
      }
    } finally {
      await gateway.shutdown();
    }
  },
);

test('--cdp-endpoint with --port, ws:// or http://: the browser is the only provider of an internal gateway on that port', SLOW, async () => {
  const before = await pageIds();
  for (const given of [browser.wsUrl, browser.httpUrl]) {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const a = await agent(['--cdp-endpoint', given, '--port', String(port)], scratch());
    try {
      assert.deepEqual(await providersAt(base), [['cdp-endpoint', 0]], 'the gateway answers on --port, with the endpoint as its only provider');
      const opened = await a.tool('browser_session', { action: 'open' });
      assert.equal(opened.error, false, opened.text);
      assert.deepEqual(await providersAt(base), [['cdp-endpoint', 1]], "the session is the gateway's");
      if (given === browser.wsUrl) await completeForm(a, site.url);
      else assert.match((await a.tool('browser_navigate', { url: `${site.url}/agent/form` })).text, /Page: "Sign up"/);
      assert.match((await a.tool('browser_session', { action: 'close' })).text, /Closed browser br_/);
      await until("the gateway's session ended", async () => (await providersAt(base)).join() === 'cdp-endpoint,0');
      await until("the session's tabs closed", async () => (await pageIds()).join() === before.join());
      const line = `browsers: --cdp-endpoint ${new URL(given).href} as the only provider (default settings), through a gateway at ${base}`;
      await until('the line once it serves', () => a.stderr().includes(line));
      assert.deepEqual(a.errors, []);
    } finally {
      await a.client.close();
    }
    await until('the internal gateway stopped with the server', () =>
      fetch(base).then(
        () => false,
        () => true,
      ),
    );
  }
});

test("--cdp-endpoint with --config: the endpoint instead of the file's providers, with the file's other settings", SLOW, async () => {
  const env = scratch();
  const file = path.join(env.HOME!, 'gateway.yml');
  const port = await freePort();
  // Its only provider cannot answer: a session through it would fail.
  writeFileSync(file, `gateway: { port: ${port} }\nproviders:\n  down: { url: "ws://127.0.0.1:9/devtools/browser/x" }\n`);
  const a = await agent(['--config', file, '--cdp-endpoint', browser.wsUrl], env);
  const base = `http://127.0.0.1:${port}`;
  try {
    assert.deepEqual(await providersAt(base), [['cdp-endpoint', 0]], "on the file's gateway.port, without its providers");
    const opened = await a.tool('browser_session', { action: 'open' });
    assert.equal(opened.error, false, opened.text);
    assert.deepEqual(await providersAt(base), [['cdp-endpoint', 1]]);
    await completeForm(a, site.url);
    const line = `browsers: --cdp-endpoint ${browser.wsUrl} as the only provider (the settings of ${file}), through a gateway at ${base}`;
    await until('the line once it serves', () => a.stderr().includes(line));
    assert.deepEqual(a.errors, []);
  } finally {
    await a.client.close();
  }
});

test('a busy port: one line naming --port, exit code 1, nothing on stdout', SLOW, async () => {
  const env = scratch();
  const file = path.join(env.HOME!, 'gateway.yml');
  writeFileSync(file, `providers:\n  chrome: { url: "${browser.httpUrl}" }\n`);
  const busy = net.createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  const port = String((busy.address() as net.AddressInfo).port);
  try {
    for (const args of [
      ['--cdp-endpoint', browser.wsUrl, '--port', port],
      ['--config', file, '--port', port],
      ['--config', file, '--cdp-endpoint', browser.httpUrl, '--port', port],
    ]) {
      const run = await runGateway(['mcp', ...args], env);
      assert.equal(run.code, 1, `${args.join(' ')}: ${run.stderr}`);
      assert.equal(run.stderr, `error: port ${port} is in use; give gateway mcp another --port\n`);
      assert.equal(run.stdout, '');
    }
  } finally {
    await new Promise((resolve) => busy.close(resolve));
  }
});
