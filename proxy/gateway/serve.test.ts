// `gateway serve` run as an operator runs it: the real binary in a child process with a gateway.yml
// of a dead provider and two local Chromiums, Playwright connecting through it, a local webhook
// receiver, an MCP SDK client, a real browser on the dashboard, and SIGTERM at the end.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { chromium, type Browser } from 'playwright-core';
import WebSocket from 'ws';
import { CHROMIUM, launchChromium, type Chromium } from '../../e2e/support/chromium';
import { eventually } from '../../e2e/support/connect';
import { startTestSite, type TestSite } from '../../e2e/support/test-site';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TOKEN = 'gw_test_token_0123456789abcdef';

let chromeA: Chromium;
let chromeB: Chromium;
let site: TestSite;
let receiver: http.Server;
let receiverUrl: string;
/** Webhook deliveries the receiver got, in order; `failNext` answers that many with 500 first. */
const deliveries: { url: string; body: Record<string, unknown> }[] = [];
let deadPort: number;
const scratch: string[] = [];
const children = new Set<ChildProcess>();

before(async () => {
  [chromeA, chromeB, site] = await Promise.all([launchChromium(), launchChromium(), startTestSite()]);
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      deliveries.push({ url: req.url ?? '', body: JSON.parse(body) as Record<string, unknown> });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // A port with nothing listening: connection refused.
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  deadPort = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
});

after(async () => {
  for (const child of children) child.kill('SIGKILL');
  await Promise.all([chromeA?.stop(), chromeB?.stop(), site?.close(), new Promise((resolve) => receiver?.close(resolve))]);
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

interface Served {
  child: ChildProcess;
  url: string;
  data: string;
  output: () => string;
  exited: Promise<number | null>;
}

function writeConfig(yaml: string): { file: string; data: string; home: string } {
  const home = mkdtempSync(path.join(os.tmpdir(), 'gw-serve-'));
  scratch.push(home);
  const file = path.join(home, 'gateway.yml');
  writeFileSync(file, yaml);
  return { file, data: path.join(home, 'data'), home };
}

/** Starts `gateway serve` and resolves once it printed its address. */
async function serve(yaml: string, env: Record<string, string> = {}): Promise<Served> {
  const { file, data, home } = writeConfig(yaml);
  const child = spawn(process.execPath, ['proxy/cli/gateway.mjs', 'serve', '--config', file, '--port', '0'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: home, GW_DATA_DIR: data, LOG_LEVEL: 'info', WEBHOOK_BASE: receiverUrl, ...env } as unknown as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => (children.delete(child), resolve(code))));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no address within 20 s:\n${output}`)), 20_000);
    const look = () => {
      const match = / listening on (http:\/\/\S+) /.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!.replace('0.0.0.0', '127.0.0.1'));
      }
    };
    child.stdout!.on('data', look);
    void exited.then((code) => reject(new Error(`serve exited with ${code}:\n${output}`)));
  });
  return { child, url, data, output: () => output, exited };
}

/** Polls `check` until it holds, or fails with `what` after the deadline. */
function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 10_000): Promise<NonNullable<T>> {
  return eventually(probe, ms, what);
}

/** The HTTP answer to a WebSocket upgrade that was refused: status and JSON body. */
function refusedUpgrade(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.on('open', () => {
      socket.close();
      reject(new Error('the upgrade was accepted'));
    });
    socket.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    socket.on('error', () => {});
  });
}

const status = async (base: string, headers: Record<string, string> = {}) =>
  (await fetch(`${base}/v1/status`, { headers })).json() as Promise<{
    queued: number;
    providers: { id: string; healthy: boolean; active: number; maxConcurrent: number; cooldownUntil: string | null }[];
  }>;

const threeProviders = () => `
gateway:
  name: test-gateway
  defaultStrategy: priority-chain
  cooldown: { defaultMs: 60000, failureThreshold: 0.5, minRequestVolume: 1 }
  connectionTimeout: 3000
  shutdownDrainMs: 2500
queue: { maxSize: 1, timeoutMs: 1500 }
webhooks:
  - url: \${WEBHOOK_BASE}/all
  - url: \${WEBHOOK_BASE}/cooldown-only
    events: [provider.cooldown]
providers:
  dead: { url: "ws://127.0.0.1:${deadPort}/devtools/browser/x", priority: 1 }
  chrome-a: { url: "${chromeA.httpUrl}", priority: 2, limits: { maxConcurrent: 1 } }
  chrome-b: { url: "${chromeB.wsUrl}", priority: 3, limits: { maxConcurrent: 1 } }
`;

test('failover past a dead provider, its cooldown event, capacity, the queue and its timeout, pinning, then SIGTERM with a drain', async () => {
  deliveries.length = 0;
  const gw = await serve(threeProviders());
  const connect = `${gw.url.replace('http', 'ws')}/v1/connect`;
  const browsers: Browser[] = [];
  try {
    // The first connect fails over from the dead provider to chrome-a; the client never sees it.
    const first = await chromium.connectOverCDP(connect);
    browsers.push(first);
    const page = await first.contexts()[0]!.newPage();
    await page.goto(`${site.url}/basic`);
    assert.equal(await page.title(), 'Basic page');

    const cooldown = await until('the provider.cooldown webhook', () => deliveries.find((d) => d.url === '/all' && d.body.event === 'provider.cooldown'));
    assert.deepEqual(Object.keys(cooldown.body).sort(), ['data', 'event', 'source', 'status', 'timestamp', 'version']);
    assert.equal(cooldown.body.version, '1');
    assert.equal(cooldown.body.status, 'firing');
    assert.equal(cooldown.body.source, 'test-gateway');
    assert.deepEqual(cooldown.body.data, { providerId: 'dead', cooldownMs: 60000 });
    assert.ok(!Number.isNaN(Date.parse(cooldown.body.timestamp as string)));
    await until('the cooldown-only webhook', () => deliveries.find((d) => d.url === '/cooldown-only'));

    const byId = Object.fromEntries((await status(gw.url)).providers.map((p) => [p.id, p]));
    // The status record of the spec, and beside it the last probe (status-page.test.ts).
    assert.deepEqual(Object.keys(byId.dead!).sort(), [
      'active',
      'checkedAt',
      'cooldownUntil',
      'healthy',
      'id',
      'latencyMs',
      'maxConcurrent',
      'reachable',
      'reason',
    ]);
    assert.equal(byId.dead!.healthy, false);
    assert.ok(Date.parse(byId.dead!.cooldownUntil!) > Date.now());
    assert.deepEqual(
      [byId['chrome-a']!.active, byId['chrome-a']!.maxConcurrent, byId['chrome-a']!.healthy, byId['chrome-a']!.cooldownUntil],
      [1, 1, true, null],
    );

    // Pinned to a provider in cooldown: at once, naming it.
    const pinned = await refusedUpgrade(`${connect}?provider=dead`);
    assert.equal(pinned.status, 503);
    assert.match((pinned.body as { error: string }).error, /"dead"/);

    // chrome-a is at its maxConcurrent: skipped; the second session goes to chrome-b.
    browsers.push(await chromium.connectOverCDP(connect));
    assert.equal((await status(gw.url)).providers.find((p) => p.id === 'chrome-b')!.active, 1);

    // Both full: the third waits in the queue (size 1), a fourth is refused at once, the third times out.
    const started = Date.now();
    const third = refusedUpgrade(connect);
    await until('the third connect to queue', async () => ((await status(gw.url)).queued === 1 ? true : undefined));
    assert.deepEqual(await refusedUpgrade(connect), { status: 503, body: { error: 'All providers unavailable' } });
    const timedOut = await third;
    assert.deepEqual(timedOut, { status: 503, body: { error: 'All providers unavailable' } });
    assert.ok(Date.now() - started >= 1400);
    const queueEvent = await until('the queue.timeout webhook', () => deliveries.find((d) => d.body.event === 'queue.timeout'));
    assert.ok((queueEvent.body.data as { waitMs: number }).waitMs >= 1400);
    assert.equal(deliveries.filter((d) => d.url === '/cooldown-only' && d.body.event !== 'provider.cooldown').length, 0, 'an events list is honoured');

    // A waiter gets the slot a closing session frees.
    const waiting = chromium.connectOverCDP(connect);
    await until('a waiter in the queue', async () => ((await status(gw.url)).queued === 1 ? true : undefined));
    await browsers.pop()!.close();
    browsers.push(await waiting);

    // SIGTERM: shutdown.start goes out, new requests get 503, open sessions are closed at the drain deadline, exit 0.
    const stopAt = Date.now();
    const disconnected = Promise.all(browsers.map((b) => new Promise((resolve) => b.on('disconnected', resolve))));
    gw.child.kill('SIGTERM');
    await until('the shutdown.start webhook', () => deliveries.find((d) => d.body.event === 'shutdown.start'));
    const during = await fetch(`${gw.url}/v1/status`).catch(() => null);
    if (during) assert.equal(during.status, 503);
    assert.equal(await gw.exited, 0, gw.output());
    await disconnected;
    assert.ok(Date.now() - stopAt >= 2000, 'sessions had the drain time');
  } finally {
    await Promise.all(browsers.map((b) => b.close().catch(() => {})));
  }
});

test('a drain that ends early: the last session closing lets the gateway exit before the deadline', async () => {
  const gw = await serve(threeProviders().replace('shutdownDrainMs: 2500', 'shutdownDrainMs: 30000'));
  const browser = await chromium.connectOverCDP(`${gw.url.replace('http', 'ws')}/v1/connect?provider=chrome-b`);
  const stopAt = Date.now();
  gw.child.kill('SIGTERM');
  await until('the gateway to refuse new sessions', async () => {
    const refused = await refusedUpgrade(`${gw.url.replace('http', 'ws')}/v1/connect`).catch(() => ({ status: 0 }));
    return refused.status === 503 ? true : undefined;
  });
  await browser.close();
  assert.equal(await gw.exited, 0);
  assert.ok(Date.now() - stopAt < 10_000);
});

test('GW_TOKEN: every route needs it (bearer or ?token=), the default bind is all interfaces; without it, loopback and a Host check', async () => {
  const guarded = await serve(threeProviders(), { GW_TOKEN: TOKEN });
  try {
    assert.match(guarded.output(), /listening on http:\/\/\S+ \(all interfaces\)/);
    assert.doesNotMatch(guarded.output(), /listening on http:\/\/0\.0\.0\.0/, 'an address a client can dial');
    assert.equal((await fetch(`${guarded.url}/v1/status`)).status, 401);
    assert.equal((await fetch(`${guarded.url}/v1/status`, { headers: { Authorization: 'Bearer wrong' } })).status, 401);
    assert.equal((await fetch(`${guarded.url}/v1/status`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status, 200);
    assert.equal((await fetch(`${guarded.url}/v1/webhooks`)).status, 401);
    assert.equal((await fetch(`${guarded.url}/mcp`, { method: 'POST', body: '{}' })).status, 401);
    assert.equal((await refusedUpgrade(`${guarded.url.replace('http', 'ws')}/v1/connect?provider=chrome-a`)).status, 401);
    const browser = await chromium.connectOverCDP(`${guarded.url.replace('http', 'ws')}/v1/connect?provider=chrome-a&token=${TOKEN}`);
    await browser.close();
    // The dashboard's page holds no data; its script asks for the token.
    const page = await fetch(`${guarded.url}/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'nonce-/);
  } finally {
    guarded.child.kill('SIGTERM');
    await guarded.exited;
  }

  const open = await serve(threeProviders().replace('name: test-gateway', 'name: open-gateway') + 'dashboard: { enabled: false }\n');
  try {
    assert.match(open.output(), /listening on http:\/\/127\.0\.0\.1:/);
    assert.equal((await fetch(`${open.url}/v1/status`)).status, 200);
    // A DNS-rebound name reaches loopback with its own Host: refused on every route.
    const port = new URL(open.url).port;
    for (const route of ['/v1/status', '/v1/webhooks']) {
      const refused = await rawGet(open.url, route, { Host: `evil.example:${port}` });
      assert.equal(refused.status, 403, route);
    }
    assert.equal((await refusedUpgrade(`${open.url.replace('http', 'ws')}/v1/connect`, { Host: `evil.example:${port}` })).status, 403);
    // A page of another origin may not open a session (browsers send Origin on WebSockets).
    const crossOrigin = await refusedUpgrade(`${open.url.replace('http', 'ws')}/v1/connect`, { Origin: 'http://evil.example' });
    assert.equal(crossOrigin.status, 403);
    assert.equal((await fetch(`${open.url}/`)).status, 404, 'dashboard.enabled: false');
  } finally {
    open.child.kill('SIGTERM');
    await open.exited;
  }

  const allowed = await serve(threeProviders(), { GW_ALLOWED_HOSTS: 'gateway.internal', GW_ALLOWED_ORIGINS: 'http://tools.internal' });
  try {
    assert.equal((await rawGet(allowed.url, '/v1/status', { Host: 'gateway.internal' })).status, 200);
    assert.equal((await rawGet(allowed.url, '/v1/status', { Origin: 'http://tools.internal' })).status, 200);
    assert.equal((await rawGet(allowed.url, '/v1/status', { Origin: 'http://other.internal' })).status, 403);
  } finally {
    allowed.child.kill('SIGTERM');
    await allowed.exited;
  }
});

function rawGet(base: string, route: string, headers: Record<string, string>): Promise<{ status: number }> {
  const url = new URL(route, base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, headers }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0 });
    });
    req.on('error', reject);
    req.end();
  });
}

test('webhooks: added ones are sealed at rest and masked in lists; Test sends event "test"; gateway.yml ones cannot be deleted here', async () => {
  deliveries.length = 0;
  const gw = await serve(threeProviders());
  try {
    const secretUrl = `${receiverUrl}/added?token=s3cret-token&apiKey=k3y&Key=K&password=p4ss&secret=x&keep=visible`;
    const created = await fetch(`${gw.url}/v1/webhooks`, { method: 'POST', body: JSON.stringify({ url: secretUrl, events: ['queue.timeout'] }) });
    assert.equal(created.status, 201);
    const { webhook } = (await created.json()) as { webhook: { id: string; url: string; events: string[] } };
    assert.equal(webhook.url, `${receiverUrl}/***?token=***&apiKey=***&Key=***&password=***&secret=***&keep=***`, 'every query value and path segment masked');
    const { webhooks } = (await (await fetch(`${gw.url}/v1/webhooks`)).json()) as {
      webhooks: { id: string; url: string; source: string; events: string[] | null }[];
    };
    assert.deepEqual(
      webhooks.map((w) => [w.source, w.events]),
      [
        ['config', null],
        ['config', ['provider.cooldown']],
        ['dashboard', ['queue.timeout']],
      ],
    );
    assert.ok(!JSON.stringify(webhooks).includes('s3cret-token'));

    const sealed = readFileSync(path.join(gw.data, 'webhooks.enc'));
    assert.ok(!sealed.includes('s3cret-token') && !sealed.includes('/added'), 'sealed at rest');
    assert.equal(statSync(path.join(gw.data, 'webhooks.enc')).mode & 0o777, 0o600);
    assert.equal(statSync(path.join(gw.data, 'encryption.key')).mode & 0o777, 0o600);

    const tested = await (await fetch(`${gw.url}/v1/webhooks/${webhook.id}/test`, { method: 'POST' })).json();
    assert.deepEqual(tested, { ok: true, status: 204 });
    const test = deliveries.find((d) => d.url.startsWith('/added'))!;
    assert.equal(test.url, '/added?token=s3cret-token&apiKey=k3y&Key=K&password=p4ss&secret=x&keep=visible', 'the real URL is called');
    assert.deepEqual([test.body.event, test.body.status, test.body.source, test.body.data], ['test', 'firing', 'test-gateway', {}]);

    for (const [body, field] of [
      [{ url: 'ftp://x' }, /url/],
      [{ url: `${receiverUrl}/x`, events: ['nope'] }, /events/],
      [{ url: `${receiverUrl}/x`, extra: 1 }, /extra|unrecognized/i],
    ] as const) {
      const bad = await fetch(`${gw.url}/v1/webhooks`, { method: 'POST', body: JSON.stringify(body) });
      assert.equal(bad.status, 400);
      assert.match(((await bad.json()) as { error: string }).error, field);
    }
    assert.equal((await fetch(`${gw.url}/v1/webhooks`, { method: 'POST', body: 'not json' })).status, 400);
    assert.equal((await fetch(`${gw.url}/v1/webhooks/config-1`, { method: 'DELETE' })).status, 409);
    assert.equal((await fetch(`${gw.url}/v1/webhooks/wh_nope`, { method: 'DELETE' })).status, 404);
    assert.equal((await fetch(`${gw.url}/v1/webhooks/${webhook.id}`, { method: 'DELETE' })).status, 204);
  } finally {
    gw.child.kill('SIGTERM');
    await gw.exited;
  }
  // The added webhook survives a restart only while it exists: deleted above, so gone; the key is reused.
  const again = await serve(threeProviders(), { GW_DATA_DIR: gw.data });
  try {
    const { webhooks } = (await (await fetch(`${again.url}/v1/webhooks`)).json()) as { webhooks: unknown[] };
    assert.equal(webhooks.length, 2);
  } finally {
    again.child.kill('SIGTERM');
    await again.exited;
  }
});

test('the dashboard in a real browser: providers with their state, and a webhook added and tested', async () => {
  deliveries.length = 0;
  const gw = await serve(threeProviders());
  const viewer = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const page = await viewer.newPage();
    await page.goto(`${gw.url}/`);
    await page.getByRole('cell', { name: 'chrome-a' }).waitFor();
    // The dead provider is probed at start-up: unreachable; both Chromiums healthy once probed.
    await page.getByRole('row', { name: /dead/ }).getByText('Unreachable').waitFor();
    await until('both Chromiums probed healthy', async () => ((await page.getByText('Healthy', { exact: true }).count()) === 2 ? true : undefined));
    await page.getByLabel('Webhook URL').fill(`${receiverUrl}/from-dashboard?token=abc`);
    await page.getByRole('button', { name: 'Add webhook' }).click();
    // Listed masked, path and query alike: the only one with a query is the one added here.
    await page.getByRole('cell', { name: /\/\*\*\*\?token=\*\*\*/ }).waitFor();
    await page
      .getByRole('row', { name: /\?token=\*\*\*/ })
      .getByRole('button', { name: 'Test' })
      .click();
    await page.getByText('Test delivered (HTTP 204)').waitFor();
    assert.ok(deliveries.some((d) => d.url === '/from-dashboard?token=abc' && d.body.event === 'test'));
  } finally {
    await viewer.close();
    gw.child.kill('SIGTERM');
    await gw.exited;
  }
});

test('POST /mcp: an MCP client drives a browser that the gateway routes like any connect', async () => {
  const gw = await serve(threeProviders(), { GW_TOKEN: TOKEN });
  const client = new Client({ name: 'test', version: '1' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
    const tools = await client.listTools();
    assert.ok(tools.tools.some((t) => t.name === 'browser_snapshot'));
    const opened = (await client.callTool({ name: 'browser_session', arguments: { action: 'open' } })) as { content: { text: string }[] };
    assert.match(opened.content[0]!.text, /br_/);
    assert.equal(
      (await status(gw.url, { Authorization: `Bearer ${TOKEN}` })).providers.reduce((n, p) => n + p.active, 0),
      1,
      'the browser is a routed session',
    );
    const shown = (await client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/agent/form` } })) as { content: { text: string }[] };
    assert.match(shown.content[0]!.text, /textbox "Email"/);
    await client.callTool({ name: 'browser_session', arguments: { action: 'close' } });
    await until('the session to end', async () =>
      (await status(gw.url, { Authorization: `Bearer ${TOKEN}` })).providers.every((p) => p.active === 0) ? true : undefined,
    );
  } finally {
    await client.close();
    gw.child.kill('SIGTERM');
    await gw.exited;
  }
});

test('serve refuses what it cannot run: no providers, a wrong key (named with its line), a port in use', async () => {
  const run = (yaml: string, args: string[] = []) => {
    const { file, data, home } = writeConfig(yaml);
    const child = spawn(process.execPath, ['proxy/cli/gateway.mjs', 'serve', '--config', file, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: home, GW_DATA_DIR: data } as unknown as NodeJS.ProcessEnv,
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    return new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stderr })));
  };
  const none = await run('gateway: { name: x }\n', ['--port', '0']);
  assert.equal(none.code, 1);
  assert.match(none.stderr, /has no providers/);
  const typo = await run('gateway:\n  shutdownDrain: 5\nproviders:\n  a: { url: "ws://127.0.0.1:1/x" }\n', ['--port', '0']);
  assert.equal(typo.code, 1);
  assert.match(typo.stderr, /gateway\.yml:2: gateway\.shutdownDrain /);
  assert.match(typo.stderr, /shutdownDrainMs/);
  const busy = net.createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  try {
    const taken = await run(`providers:\n  a: { url: "ws://127.0.0.1:1/x" }\n`, ['--port', String((busy.address() as AddressInfo).port)]);
    assert.equal(taken.code, 1);
    assert.match(taken.stderr, /is in use/);
  } finally {
    busy.close();
  }
});

test('HTTP_PROXY and NO_PROXY: provider dials tunnel through CONNECT, /json/version and webhooks go through the proxy; NO_PROXY bypasses it', async () => {
  // A forward proxy as operators run them: absolute-form requests are forwarded, CONNECT is tunnelled.
  const seen: string[] = [];
  const proxy = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const target = new URL(req.url!);
    const forward = http.request(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  });
  proxy.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = req.url!.split(':');
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  try {
    deliveries.length = 0;
    const gw = await serve(threeProviders(), { HTTP_PROXY: proxyUrl });
    try {
      const browser = await chromium.connectOverCDP(`${gw.url.replace('http', 'ws')}/v1/connect?provider=chrome-a`);
      await browser.close();
      // One tunnel for /json/version (undici tunnels plain http too), one for the WebSocket.
      assert.equal(seen.filter((line) => line === `CONNECT 127.0.0.1:${chromeA.port}`).length, 2, seen.join('\n'));
      const { webhooks } = (await (await fetch(`${gw.url}/v1/webhooks`)).json()) as { webhooks: { id: string }[] };
      assert.deepEqual(await (await fetch(`${gw.url}/v1/webhooks/${webhooks[0]!.id}/test`, { method: 'POST' })).json(), { ok: true, status: 204 });
      assert.ok(seen.includes(`CONNECT ${new URL(receiverUrl).host}`) || seen.includes(`POST ${receiverUrl}/all`), seen.join('\n'));
    } finally {
      gw.child.kill('SIGTERM');
      await gw.exited;
    }
    seen.length = 0;
    const bypass = await serve(threeProviders(), { HTTP_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' });
    try {
      const browser = await chromium.connectOverCDP(`${bypass.url.replace('http', 'ws')}/v1/connect?provider=chrome-a`);
      await browser.close();
      const { webhooks } = (await (await fetch(`${bypass.url}/v1/webhooks`)).json()) as { webhooks: { id: string }[] };
      await fetch(`${bypass.url}/v1/webhooks/${webhooks[0]!.id}/test`, { method: 'POST' });
      assert.deepEqual(seen, []);
    } finally {
      bypass.child.kill('SIGTERM');
      await bypass.exited;
    }
  } finally {
    proxy.closeAllConnections();
    await new Promise((resolve) => proxy.close(resolve));
  }
});

test('profiles: a session saves its cookies and localStorage sealed in the data directory; the next one, on another provider, starts with them', async () => {
  const gw = await serve(threeProviders());
  const ws = gw.url.replace('http', 'ws');
  try {
    const first = await chromium.connectOverCDP(`${ws}/v1/connect?provider=chrome-a&profile=acme`);
    const page = await first.contexts()[0]!.newPage();
    await page.goto(`${site.url}/basic`);
    await page.evaluate(() => {
      document.cookie = 'session=kept-secret-cookie; max-age=3600; path=/';
      localStorage.setItem('theme', 'dark-and-secret');
    });
    // While it may save, another saving session of the same profile is refused; a read-only one is not.
    const busy = await refusedUpgrade(`${ws}/v1/connect?provider=chrome-b&profile=acme`);
    assert.equal(busy.status, 409);
    await first.close();
    const file = path.join(gw.data, 'profiles', 'acme.enc');
    await until('the profile file', () => {
      try {
        return statSync(file).size > 0;
      } catch {
        return undefined;
      }
    });
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const sealed = readFileSync(file);
    assert.ok(!sealed.includes('kept-secret-cookie') && !sealed.includes('dark-and-secret'), 'sealed at rest');

    // Saved once the capture finished: the next session may save again.
    const second = await until('the saving lock to be free', async () =>
      chromium.connectOverCDP(`${ws}/v1/connect?provider=chrome-b&profile=acme`).catch(() => undefined),
    );
    const again = await second.contexts()[0]!.newPage();
    await again.goto(`${site.url}/basic`);
    assert.deepEqual(await again.evaluate(() => [document.cookie, localStorage.getItem('theme')]), ['session=kept-secret-cookie', 'dark-and-secret']);
    await again.close();
    await second.close();

    // The shared browser was cleared after the profile's session: a plain session there starts clean.
    const plain = await until('chrome-a free', async () => chromium.connectOverCDP(`${ws}/v1/connect?provider=chrome-a`).catch(() => undefined));
    const clean = await plain.contexts()[0]!.newPage();
    await clean.goto(`${site.url}/basic`);
    assert.deepEqual(await clean.evaluate(() => [document.cookie, localStorage.getItem('theme')]), ['', null], gw.output());
    await plain.close();

    for (const [query, code] of [
      ['readOnly=1', 400],
      ['profile=../etc', 400],
      ['profile=a&readOnly=2', 400],
    ] as const) {
      assert.equal((await refusedUpgrade(`${ws}/v1/connect?${query}`)).status, code, query);
    }
  } finally {
    gw.child.kill('SIGTERM');
    await gw.exited;
  }
});

test('a client that resets after a refused upgrade does not take the gateway down', async () => {
  const gw = await serve(threeProviders(), { GW_TOKEN: TOKEN });
  try {
    const { port } = new URL(gw.url);
    for (const path of ['/nowhere', '/v1/connect']) {
      // The refusal (404, then 401) is being written when the client resets the connection.
      await new Promise<void>((resolve) => {
        const socket = net.connect(Number(port), '127.0.0.1', () => {
          socket.write(
            `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
          );
          socket.resetAndDestroy();
          resolve();
        });
        socket.on('error', () => resolve());
      });
    }
    await until('a status answer after the resets', async () =>
      (await fetch(`${gw.url}/v1/status`, { headers: { Authorization: `Bearer ${TOKEN}` } }).catch(() => null))?.status === 200 ? true : undefined,
    );
    assert.equal(gw.child.exitCode, null, gw.output());
  } finally {
    gw.child.kill('SIGTERM');
    await gw.exited;
  }
});

test('shutdown: a connect still dialling gets 503, a failing webhook does not hold the exit', async () => {
  // A provider that takes the connection and never answers the handshake.
  const seen: net.Socket[] = [];
  const slow = net.createServer((socket) => seen.push(socket));
  await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
  const yaml = `
gateway: { connectionTimeout: 20000, shutdownDrainMs: 1000 }
webhooks:
  - url: "http://127.0.0.1:${deadPort}/down"
providers:
  slow: { url: "ws://127.0.0.1:${(slow.address() as AddressInfo).port}/devtools/browser/x" }
`;
  const gw = await serve(yaml);
  try {
    const refused = refusedUpgrade(`${gw.url.replace('http', 'ws')}/v1/connect`);
    await until('the dial to reach the provider', () => (seen.length > 0 ? true : undefined));
    const stopAt = Date.now();
    gw.child.kill('SIGTERM');
    assert.deepEqual(await refused, { status: 503, body: { error: 'the gateway is shutting down' } });
    assert.equal(await gw.exited, 0);
    assert.ok(Date.now() - stopAt < 8_000, `exited ${Date.now() - stopAt} ms after SIGTERM (drain 1 s, a webhook retrying)`);
  } finally {
    for (const socket of seen) socket.destroy();
    slow.close();
  }
});

test('serve refuses a data directory others can write, a proxy it cannot use, a wrong LOG_LEVEL; other commands still run with one', async () => {
  const { file, home } = writeConfig(`providers:\n  a: { url: "ws://127.0.0.1:1/x" }\n`);
  const shared = path.join(home, 'shared');
  mkdirSync(shared, { mode: 0o777 });
  chmodSync(shared, 0o777);
  const run = (env: Record<string, string>, args = ['serve', '--config', file, '--port', '0']) => {
    const child = spawn(process.execPath, ['proxy/cli/gateway.mjs', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: home, GW_DATA_DIR: path.join(home, 'data'), ...env } as unknown as NodeJS.ProcessEnv,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  };
  const open = await run({ GW_DATA_DIR: shared });
  assert.equal(open.code, 1);
  assert.match(open.stderr, /can be written by other users \(mode 777\); chmod 700 it/);
  const socks = await run({ HTTPS_PROXY: 'socks5://127.0.0.1:1080' });
  assert.equal(socks.code, 1);
  assert.match(socks.stderr, /HTTPS_PROXY must be an http:\/\/ proxy address/);
  const level = await run({ LOG_LEVEL: 'loud' });
  assert.equal(level.code, 2);
  assert.match(level.stderr, /LOG_LEVEL must be one of debug, info, warn, error/);
  assert.equal((await run({ LOG_LEVEL: 'loud' }, ['version'])).code, 0);
});
