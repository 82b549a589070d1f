// npm test — every test: unit and integration (node's test runner) and end-to-end in a real
// browser (Playwright). Brings up one stack for the run: embedded PostgreSQL in a scratch data
// directory, a local SMTP server, the production build of the web app, the proxy.
// `npm test -- --only unit|api|browser` runs one group; `--files <text>` narrows to matching files.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startMailCatcher } from '../e2e/support/mail-catcher';
import { startAdapterOneVendor } from '../e2e/support/vendors/adapter-one';
import { startAdapterTwoVendor } from '../e2e/support/vendors/adapter-two';
import { freePort } from './lib/ports';
import { eslintBin, runToEnd, tscBin } from './lib/processes';
import { startStack } from './lib/stack';

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
// `--files <text>` keeps only test files whose path contains the text (for a quick rerun).
const filter = process.argv.includes('--files') ? process.argv[process.argv.indexOf('--files') + 1] : undefined;
const log = (line: string) => console.log(`[test] ${line}`);

function find(dir: string, suffix: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === 'node_modules' || name === 'generated') return [];
    return statSync(full).isDirectory() ? find(full, suffix) : full.endsWith(suffix) && (!filter || full.includes(filter)) ? [full] : [];
  });
}

const unitFiles = [...find('lib', '.test.ts'), ...find('proxy', '.test.ts'), ...find('scripts', '.test.ts')];
const apiFiles = find('e2e/api', '.test.ts');
const browserFiles = find('e2e/browser', '.spec.ts');

let passed = 0;
let failed = 0;
const tapFile = path.join(os.tmpdir(), `br-tap-${process.pid}.txt`);

async function nodeTests(files: string[], env: NodeJS.ProcessEnv, concurrency: number): Promise<void> {
  if (files.length === 0) return;
  await runToEnd(
    ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', '--test-reporter-destination=stdout', '--test-reporter=tap', `--test-reporter-destination=${tapFile}`, ...files],
    env,
  );
  const tap = readFileSync(tapFile, 'utf8');
  passed += Number(/^# pass (\d+)/m.exec(tap)?.[1] ?? 0);
  failed += Number(/^# fail (\d+)/m.exec(tap)?.[1] ?? 0) + Number(/^# cancelled (\d+)/m.exec(tap)?.[1] ?? 0);
}

const started = Date.now();
log(`running ${unitFiles.length} unit, ${apiFiles.length} integration and ${browserFiles.length} browser test files`);
if ((!only || only === 'unit') && !filter) {
  // The whole tree, tests and scripts included, type-checks under the strict settings (next build
  // checks only the app). Counted as one test.
  const code = await runToEnd([tscBin, '--noEmit', '-p', '.'], process.env);
  if (code === 0) passed++;
  else failed++;
  log(code === 0 ? 'typecheck: ok' : 'typecheck: FAILED (tsc --noEmit, errors above)');
  // ESLint (eslint.config.mjs: Next's rules and the layer rule), cached: also one test.
  const lint = await runToEnd([eslintBin, '--cache', '--cache-location', 'node_modules/.cache/eslint/', '.'], process.env);
  if (lint === 0) passed++;
  else failed++;
  log(lint === 0 ? 'lint: ok' : 'lint: FAILED (npm run lint, errors above)');
}
if (!only || only === 'unit') await nodeTests(unitFiles, { ...process.env, NODE_ENV: 'test' }, 2);

if (only !== 'unit' && apiFiles.length + browserFiles.length > 0) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'br-test-'));
  const mail = await startMailCatcher();
  // Cloud-browser vendors we cannot run: real HTTP servers playing their documented APIs.
  const [vendorOne, vendorTwo] = await Promise.all([startAdapterOneVendor(), startAdapterTwoVendor()]);
  const [webPort, proxyPort, pgPort, poolPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  delete process.env.DATABASE_URL; // the tests own a scratch database, whatever the shell says
  const stack = await startStack({
    dataDir, webPort, proxyPort, poolPort, embeddedPostgresPort: pgPort, host: '127.0.0.1', log, quiet: !process.env.TEST_VERBOSE,
    // PRIVATE_NETWORK=allow: the tests' pages, browsers and vendor stand-ins are all on this
    // machine's loopback. The egress tests that need `deny` start their own processes with it.
    extraEnv: { PRIVATE_NETWORK: 'allow', SMTP_URL: mail.smtpUrl, MAIL_FROM: 'Browser Router <no-reply@test.local>', LOG_LEVEL: process.env.TEST_VERBOSE ? 'info' : 'warn', SIGN_UPS_PER_HOUR_PER_IP: '100000', PASSWORD_RESETS_PER_HOUR_PER_IP: '100000', ADMIN_EMAILS: 'operator@test.local', LOCAL_POOL_AUTO_PROVIDER: '0', SESSION_STATS_FLUSH_MS: '500',
      ADAPTER_ONE_BASE_URL: vendorOne.url, ADAPTER_TWO_BASE_URL: vendorTwo.url },
  });
  const env = {
    ...stack.env, TEST_WEB_URL: stack.webUrl, TEST_PROXY_URL: stack.proxyUrl, TEST_MAIL_URL: mail.httpUrl, LOG_LEVEL: 'silent',
    TEST_ADAPTER_ONE_URL: vendorOne.url, TEST_ADAPTER_TWO_URL: vendorTwo.url, TEST_POOL_URL: stack.poolUrl,
  };
  try {
    // One integration file at a time: many tests bound real time, and two cores are all CI has.
    if (only !== 'browser') await nodeTests(apiFiles, env, 1);
    if (browserFiles.length > 0 && only !== 'api') {
      const reportFile = path.join(os.tmpdir(), `br-pw-${process.pid}.json`);
      // With `--files`, only the matching specs (Playwright takes them as arguments).
      await runToEnd([path.join('node_modules', '@playwright', 'test', 'cli.js'), 'test', ...(filter ? browserFiles : [])], { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: reportFile });
      if (existsSync(reportFile)) {
        const stats = (JSON.parse(readFileSync(reportFile, 'utf8')) as { stats: { expected: number; unexpected: number; flaky: number } }).stats;
        passed += stats.expected + stats.flaky;
        failed += stats.unexpected;
      } else {
        failed += 1;
      }
    }
  } finally {
    await stack.stop();
    await mail.stop();
    await Promise.all([vendorOne.stop(), vendorTwo.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

log(`finished in ${Math.round((Date.now() - started) / 1000)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
