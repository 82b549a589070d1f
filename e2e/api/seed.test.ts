// `npm run seed` as the README tells a user to run it, while `npm start` runs: its output names the
// account token, the router key and the connect URL, and that URL (and the printed Playwright line)
// really opens a browser through the proxy and the local pool. The run shares the stack's embedded
// PostgreSQL through its data directory, as a seed beside a running `npm start` does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { call, expectOk, uniqueEmail } from '../support/api';
import { eventually, POOL_HTTP } from '../support/connect';
import { startTestSite } from '../support/test-site';
import { programRunner } from '../../scripts/lib/processes';
import { freePort } from '../../scripts/lib/ports';
import { installEnv as userEnv } from '../support/install-env';

const run = promisify(execFile);

/** The indented line under a heading of the seed's output, e.g. "Connect URL". */
function under(output: string, heading: string): string {
  const lines = output.split('\n');
  const at = lines.findIndex((line) => line.startsWith(heading));
  assert.ok(at >= 0, `no "${heading}" in the output:\n${output}`);
  return lines[at + 1]!.trim();
}

async function poolCalibrated(): Promise<void> {
  await eventually(
    async () => {
      const status = (await (await fetch(`${POOL_HTTP}/pool/status`, { headers: { authorization: `Bearer ${process.env.POOL_TOKEN}` } })).json()) as {
        calibrating: boolean;
      };
      return !status.calibrating;
    },
    30_000,
    'the pool to calibrate',
  );
}

test('npm run seed prints a connect URL that opens a browser, and says which credential is which', { timeout: 180_000 }, async () => {
  await poolCalibrated();
  const email = uniqueEmail('seed');
  const { stdout } = await run(process.execPath, [programRunner, 'scripts/seed.ts', '--email', email, '--password', 'a seeded password'], { env: userEnv() });

  const accountToken = under(stdout, 'Account token');
  const routerKey = under(stdout, 'Router key');
  const connectUrl = under(stdout, 'Connect URL');
  assert.match(accountToken, /^acct_/);
  assert.match(routerKey, /^rkey_/);
  assert.match(stdout, /Account token \(the control-plane API on the web port/);
  assert.match(stdout, /Router key \(the connect endpoint and the data API on the proxy port/);

  // The account token is for the control plane, on the web port.
  const me = expectOk(await call('GET', '/v1/me', { auth: { token: accountToken } }));
  assert.equal(me.user.email, email);

  // The router's first provider is the local pool, probed as any provider is on add.
  const { items: providers } = expectOk(await call('GET', '/v1/providers', { auth: { token: accountToken } }));
  const { capabilities } = providers.find((p: { slug: string }) => p.slug === 'local-pool');
  assert.equal(capabilities.providerKind, 'managed');
  assert.ok(Date.parse(capabilities.probedAt) > 0 && capabilities.probeDurationMs > 0 && capabilities.targetCreateLatencyMs >= 0, JSON.stringify(capabilities));
  assert.equal(capabilities.pageScreencast, 'supported');

  // The connect URL: the proxy's port, the router key as `token`.
  const url = new URL(connectUrl);
  assert.equal(url.protocol, 'ws:');
  assert.equal(url.port, new URL(process.env.TEST_PROXY_URL!).port);
  assert.equal(url.pathname, '/v1/connect');
  assert.equal(url.searchParams.get('token'), routerKey);

  // …and it connects: Playwright over CDP, through the proxy, to a browser of the local pool.
  const browser = await chromium.connectOverCDP(connectUrl, { timeout: 90_000 });
  try {
    const page = await (browser.contexts()[0] ?? (await browser.newContext())).newPage();
    await page.setContent('<title>seeded</title>');
    assert.equal(await page.title(), 'seeded');
  } finally {
    await browser.close();
  }

  // The printed Playwright line, run as printed (in the repository folder, as it says).
  const playwright = under(stdout, 'Playwright, one line');
  const { stdout: printed } = await run('sh', ['-c', playwright], { timeout: 90_000 });
  assert.match(printed, /^connected to \d+\./);
});

test('npm run seed -- --json prints the same as one JSON line; a second run reuses the router key', { timeout: 120_000 }, async () => {
  const email = uniqueEmail('seed-json');
  const seed = async () =>
    JSON.parse(
      (
        await run(process.execPath, [programRunner, 'scripts/seed.ts', '--email', email, '--password', 'a seeded password', '--json'], { env: userEnv() })
      ).stdout.trim(),
    );
  const first = await seed();
  assert.match(first.accessToken, /^acct_/);
  assert.match(first.routerKey, /^rkey_/);
  assert.equal(first.connectUrl, `${process.env.TEST_PROXY_URL!.replace(/^http/, 'ws')}/v1/connect?token=${first.routerKey}`);
  assert.equal(first.providers, 1, "the local pool is the new router's provider");
  const second = await seed();
  assert.equal(second.routerKey, first.routerKey, 'no new key per run (a workspace holds at most 100)');
  assert.notEqual(second.accessToken, first.accessToken);
});

test('npm run seed -- --grant-cents N --enterprise credits the wallet through a grant and marks the workspace enterprise', { timeout: 120_000 }, async () => {
  const email = uniqueEmail('seed-grant');
  const seed = async (...extra: string[]) =>
    JSON.parse(
      (
        await run(process.execPath, [programRunner, 'scripts/seed.ts', '--email', email, '--password', 'a seeded password', '--json', ...extra], {
          env: userEnv(),
        })
      ).stdout.trim(),
    );
  const plain = await seed();
  assert.deepEqual([plain.accountState, plain.balanceUsdCents], ['free', 0]);
  const granted = await seed('--grant-cents', '2500');
  assert.deepEqual([granted.accountState, granted.balanceUsdCents], ['paid', 2_500]);
  const auth = { token: granted.accessToken };
  assert.equal(expectOk(await call('GET', '/v1/credits/balance', { auth })).balanceUsdCents, 2_500);
  const { rows } = expectOk(await call('GET', '/v1/billing/ledger?kind=grant', { auth }));
  assert.deepEqual(
    rows.map((r: { count: number; totalMillicents: number }) => [r.count, r.totalMillicents]),
    [[1, 2_500_000]],
  );
  // Each run grants again; --enterprise sets the plan.
  const again = await seed('--grant-cents', '100', '--enterprise');
  assert.deepEqual([again.accountState, again.balanceUsdCents], ['enterprise', 2_600]);
  const summary = expectOk(await call('GET', '/v1/billing/summary', { auth: { token: again.accessToken } }));
  assert.deepEqual([summary.plan, summary.accountState, summary.wallet.balanceUsdCents], ['enterprise', 'enterprise', 2_600]);
  for (const bad of ['0', '1.5', 'ten', '10000001']) {
    await assert.rejects(
      run(process.execPath, [programRunner, 'scripts/seed.ts', '--email', email, '--password', 'a seeded password', '--grant-cents', bad], { env: userEnv() }),
      /--grant-cents takes a whole number/,
    );
  }
});

/** The README's data-API `curl` commands, continuation lines joined. */
function readmeCurls(): string[] {
  const readme = readFileSync(path.join(import.meta.dirname, '..', '..', 'README.md'), 'utf8').replaceAll('\\\n', ' ');
  return [...readme.matchAll(/^curl -X POST http:\/\/localhost:9500\/v1\/(?:screenshot|content|scrape)\b.*$/gm)].map((m) => m[0]);
}

test("the README's data-API curl examples work as written (router key, proxy port, body)", { timeout: 180_000 }, async () => {
  await poolCalibrated();
  const curls = readmeCurls();
  assert.ok(
    curls.some((c) => c.includes('/v1/screenshot')) && curls.some((c) => c.includes('/v1/content')),
    `README has the screenshot and content examples: ${curls.join('\n')}`,
  );
  const seeded = JSON.parse(
    (
      await run(process.execPath, [programRunner, 'scripts/seed.ts', '--email', uniqueEmail('seed-curl'), '--password', 'a seeded password', '--json'], {
        env: userEnv(),
      })
    ).stdout.trim(),
  );
  const site = await startTestSite();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'br-readme-curl-'));
  try {
    for (const curl of curls) {
      // Only what a reader substitutes too: the key, this stack's proxy port, a page it can reach.
      const command = curl
        .replaceAll('<router key>', seeded.routerKey)
        .replaceAll('http://localhost:9500', process.env.TEST_PROXY_URL!)
        .replaceAll('https://example.com', `${site.url}/basic`)
        .replace(/-o (\S+)/, (_, file: string) => `-o ${path.join(dir, file)}`);
      const { stdout } = await run('sh', ['-c', `${command} --silent --show-error --fail-with-body --write-out '\\n%{http_code}'`], {
        timeout: 90_000,
        encoding: 'latin1',
      });
      assert.match(stdout.trim().split('\n').at(-1)!, /^200$/, `${curl}\n${stdout}`);
      if (curl.includes('/v1/screenshot')) {
        const file = path.join(dir, /-o (\S+)/.exec(curl)![1]!);
        assert.deepEqual([...readFileSync(file).subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'a PNG');
      } else {
        const body = JSON.parse(stdout.trim().split('\n').slice(0, -1).join('\n'));
        assert.equal(body.success, true);
        assert.equal(typeof body.data.content.markdown, 'string');
      }
    }
  } finally {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('npm run seed in a second terminal: another EMBEDDED_PG_PORT finds the running database from the data directory; a port held by something else is one line, exit 1', async () => {
  const env = { ...userEnv(), EMBEDDED_PG_PORT: String(await freePort()) };
  const seeded = JSON.parse(
    (
      await run(process.execPath, [programRunner, 'scripts/seed.ts', '--email', uniqueEmail('seed-port'), '--password', 'a seeded password', '--json'], { env })
    ).stdout.trim(),
  );
  assert.match(seeded.routerKey, /\S/);

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'br-seed-'));
  const squatter = net.createServer().listen(0, '127.0.0.1');
  await once(squatter, 'listening');
  try {
    const port = (squatter.address() as net.AddressInfo).port;
    await assert.rejects(
      run(process.execPath, [programRunner, 'scripts/seed.ts', '--email', uniqueEmail('seed-nodb'), '--password', 'a seeded password'], {
        env: { ...userEnv(), DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(port) },
      }),
      (error: { code: number; stderr: string }) => {
        assert.equal(error.code, 1);
        assert.equal(error.stderr.trim().split('\n').length, 1, error.stderr);
        assert.match(error.stderr, new RegExp(`^seed: no database for the install in .*: port ${port} \\(EMBEDDED_PG_PORT\\) is already in use`));
        return true;
      },
    );
  } finally {
    squatter.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
