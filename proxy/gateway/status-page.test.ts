// Provider health and live sessions as an operator sees them: `gateway serve` (the real binary, in a
// child process) with one live Chromium and one closed port, GET /v1/status after the first probe,
// the dashboard in a real browser at phone width while a client holds a session, and the log lines
// naming the gateway.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM, launchChromium, type Chromium } from '../../e2e/support/chromium';
import { eventually } from '../../e2e/support/connect';
import type { GatewayStatus } from './status';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TOKEN = 'gw_status_token_0123456789abcdef';
const SECRET = 'provider_secret_0123456789';
const auth = { Authorization: `Bearer ${TOKEN}` };

interface Served {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

const scratch: string[] = [];
const children = new Set<ChildProcess>();
let live: Chromium;
let deadPort: number;
let gw: Served;

/** Starts `gateway serve` on a free port; resolves once it printed its address. */
async function serve(yaml: string, env: Record<string, string> = {}): Promise<Served> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'gw-status-'));
  scratch.push(home);
  const file = path.join(home, 'gateway.yml');
  writeFileSync(file, yaml);
  const child = spawn(process.execPath, ['proxy/cli/gateway.mjs', 'serve', '--config', file, '--port', '0'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: home, GW_DATA_DIR: path.join(home, 'data'), LOG_LEVEL: 'info', ...env } as unknown as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => (children.delete(child), resolve(code))));
  const url = await eventually(
    () =>
      / listening on (http:\/\/\S+) /.exec(output)?.[1]?.replace('0.0.0.0', '127.0.0.1') ??
      (child.exitCode !== null ? Promise.reject(new Error(output)) : undefined),
    20_000,
    'the gateway address',
  );
  return { child, url, output: () => output, exited };
}

async function stop(served: Served): Promise<void> {
  served.child.kill('SIGTERM');
  await served.exited;
}

const status = async (): Promise<GatewayStatus> => (await fetch(`${gw.url}/v1/status`, { headers: auth })).json() as Promise<GatewayStatus>;
const providersYaml = () => `
gateway: { name: health-gateway, defaultStrategy: priority-chain, connectionTimeout: 3000, shutdownDrainMs: 1000 }
providers:
  dead: { url: "ws://127.0.0.1:${deadPort}/devtools/browser/x?token=${SECRET}", headers: { X-Api-Key: "${SECRET}" }, priority: 1 }
  live: { url: "${live.httpUrl}", priority: 2, limits: { maxConcurrent: 2 } }
`;

before(async () => {
  live = await launchChromium();
  const closed = net.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  deadPort = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  gw = await serve(providersYaml(), { GW_TOKEN: TOKEN });
});

after(async () => {
  for (const child of children) child.kill('SIGKILL');
  await live?.stop();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

test('GET /v1/status after the first probe: the closed port unreachable and not healthy, the live provider reachable, the spec record kept', async () => {
  assert.equal((await fetch(`${gw.url}/v1/status`)).status, 401, 'the same auth as before');
  const probed = await eventually(
    async () => {
      const { providers } = await status();
      return providers.every((p) => p.checkedAt !== null) ? providers : undefined;
    },
    15_000,
    'both providers probed',
  );
  const [dead, up] = probed;
  assert.deepEqual(Object.keys(dead!).sort(), ['active', 'checkedAt', 'cooldownUntil', 'healthy', 'id', 'latencyMs', 'maxConcurrent', 'reachable', 'reason']);
  assert.deepEqual(
    { ...dead!, checkedAt: typeof dead!.checkedAt, reason: typeof dead!.reason },
    { id: 'dead', healthy: false, active: 0, maxConcurrent: -1, cooldownUntil: null, reachable: false, checkedAt: 'string', latencyMs: null, reason: 'string' },
  );
  assert.match(dead!.reason!, new RegExp(`^connection refused by 127\\.0\\.0\\.1:${deadPort} `));
  assert.ok(!JSON.stringify(probed).includes(SECRET), 'no provider secret in the status');
  assert.deepEqual([up!.id, up!.healthy, up!.reachable, up!.reason, up!.cooldownUntil, up!.maxConcurrent], ['live', true, true, null, null, 2]);
  assert.ok(Number.isInteger(up!.latencyMs) && up!.latencyMs! >= 0);
  assert.ok(Math.abs(Date.parse(up!.checkedAt!) - Date.now()) < 60_000);
  assert.deepEqual((await status()).sessions, []);
});

test('GET /v1/status lists a session while it is connected, with its provider and start, and drops it when it ends', async () => {
  const connectedAt = Date.now();
  const browser = await chromium.connectOverCDP(`${gw.url.replace('http', 'ws')}/v1/connect?provider=live&token=${TOKEN}`);
  try {
    const { sessions } = await status();
    assert.equal(sessions.length, 1);
    assert.match(sessions[0]!.id, /^ses_[0-9a-f]{32}$/);
    assert.equal(sessions[0]!.provider, 'live');
    assert.ok(Math.abs(Date.parse(sessions[0]!.startedAt) - connectedAt) < 10_000);
    const started = new RegExp(`"session":"${sessions[0]!.id}","provider":"live".*"msg":"session started"`);
    await eventually(() => started.test(gw.output()), 5_000, 'the session started log line with its id');
  } finally {
    await browser.close();
  }
  await eventually(async () => ((await status()).sessions.length === 0 ? true : undefined), 10_000, 'the session to leave the list');
});

test('the dashboard at phone width: the token form, the dead provider unreachable with its reason, the live one healthy, a live session listed', async () => {
  const page = await fetch(`${gw.url}/`);
  const html = await page.text();
  const nonce = /script-src 'nonce-([^']+)'/.exec(page.headers.get('content-security-policy') ?? '')?.[1];
  assert.ok(nonce, 'a nonce CSP');
  assert.match(page.headers.get('content-security-policy')!, /default-src 'none'; script-src 'nonce-[^']+'; style-src 'nonce-[^']+'/);
  assert.equal(
    [...html.matchAll(/<(script|style)\b([^>]*)>/g)].filter((m) => !m[2]!.includes(`nonce="${nonce}"`)).length,
    0,
    'every script and style carries the nonce',
  );
  assert.doesNotMatch(html, /\sstyle=|\son[a-z]+=/, 'no inline style or handler attributes (the CSP would block them)');
  assert.ok(!html.includes('"live"') && !html.includes(SECRET), 'no data in the page itself');

  const client = await chromium.connectOverCDP(`${gw.url.replace('http', 'ws')}/v1/connect?provider=live&token=${TOKEN}`);
  const viewer: Browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const tab = await viewer.newPage({ viewport: { width: 390, height: 844 } });
    const blocked: string[] = [];
    tab.on('console', (message) => message.type() === 'error' && blocked.push(message.text()));
    await tab.goto(`${gw.url}/`);
    await tab.getByLabel('Gateway token').fill(TOKEN);
    await tab.getByRole('button', { name: 'Use token' }).click();

    const providers = tab.getByRole('table', { name: 'Providers' });
    const deadRow = providers.getByRole('row', { name: /dead/ });
    await deadRow.getByText('Unreachable').waitFor();
    await deadRow.getByText(`connection refused by 127.0.0.1:${deadPort}`).waitFor();
    await providers.getByRole('row', { name: /live/ }).getByText('Healthy', { exact: true }).waitFor();
    assert.equal(await tab.getByText(SECRET).count(), 0);

    const sessionRow = tab.getByRole('table', { name: 'Live sessions' }).getByRole('row', { name: /ses_/ });
    await sessionRow.waitFor();
    assert.match(await sessionRow.innerText(), /live/);
    assert.match(await sessionRow.innerText(), /\d+ s/, 'a running duration');
    assert.equal(await tab.locator('#stat-providers').innerText(), '1 of 2');

    // Readable at phone width: nothing wider than the screen, the look of the product.
    assert.ok(await tab.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling at 390 px');
    const look = await tab.evaluate(() => [
      getComputedStyle(document.body).backgroundColor,
      getComputedStyle(document.querySelector('.card')!).backgroundColor,
    ]);
    assert.deepEqual(look[1], 'rgb(255, 255, 255)');
    assert.notEqual(look[0], look[1], 'white cards on a grey page');
    assert.deepEqual(
      blocked.filter((text) => /Content Security Policy/i.test(text)),
      [],
    );

    await client.close();
    await tab.getByText('No sessions running').waitFor();
  } finally {
    await viewer.close();
    await client.close().catch(() => {});
  }
});

test('log lines of `gateway serve` name the gateway; an explicit SERVICE_NAME still wins', async () => {
  const lines = () =>
    gw
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const listening = lines().find((line) => line.msg === 'gateway listening');
  assert.equal(listening?.service, 'gateway');
  const unreachable = lines().find((line) => line.msg === 'provider unreachable');
  assert.deepEqual([unreachable?.service, unreachable?.provider], ['gateway', 'dead']);
  assert.ok(!gw.output().includes(SECRET), 'no provider secret in the log');

  const named = await serve(providersYaml(), { SERVICE_NAME: 'edge-gw' });
  try {
    // The log line goes to stderr, the address (which serve() waits for) to stdout: either may come first.
    const logged = () => /"msg":"gateway listening"/.test(named.output()) || undefined;
    await eventually(logged, 20_000, 'the "gateway listening" log line');
    assert.match(named.output(), /"service":"edge-gw".*"msg":"gateway listening"/);
  } finally {
    await stop(named);
  }
});

test('SIGTERM with the probe timer running: the gateway still exits 0', async () => {
  assert.equal(gw.child.exitCode, null, gw.output());
  gw.child.kill('SIGTERM');
  assert.equal(await gw.exited, 0, gw.output());
});
