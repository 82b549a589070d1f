// npm test — every test: unit and integration (node's test runner) and end-to-end in a real
// browser (Playwright). Brings up one stack for the run: embedded PostgreSQL in a scratch data
// directory, a local SMTP server, the production build of the web app, the proxy.
// `npm test -- --only unit|api|browser` runs one group; `--files <text>[,<text>…]` narrows to matching files.
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startMailCatcher } from '../e2e/support/mail-catcher';
import { startAdapterOneVendor } from '../e2e/support/vendors/adapter-one';
import { startAdapterTwoVendor } from '../e2e/support/vendors/adapter-two';
import { freePort } from './lib/ports';
import { compileServices } from './lib/build';
import { compileEntries } from './lib/compile';
import { readReport, specFailures, specTimes } from './lib/playwright-report';
import { eslintBin, prettierBin, runCaptured, runToEnd, tscBin } from './lib/processes';
import { startStack } from './lib/stack';
import { TEST_SETTINGS } from './lib/test-settings';
import { costliestReport, runTestFiles, slowestReport, type FileRun, type Schedule } from './lib/test-files';

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
// `--files <text>[,<text>…]` keeps only test files whose path contains one of the texts (quick reruns).
const filter = process.argv.includes('--files') ? process.argv[process.argv.indexOf('--files') + 1]?.split(',') : undefined;
const log = (line: string) => console.log(`[test] ${line}`);

function find(dir: string, suffix: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === 'node_modules' || name === 'generated') return [];
    return statSync(full).isDirectory() ? find(full, suffix) : full.endsWith(suffix) && (!filter || filter.some((text) => full.includes(text))) ? [full] : [];
  });
}

// Test files run TEST_CONCURRENCY (3) at a time, integration files against the one stack; each works in
// workspaces of its own (newUser) and sends its deliberate bad keys from an address of its own.
// These share something only one may use at a time, so they take turns (beside the other files).
const LANES: Record<string, { files: string[]; why: string }> = {
  pool: {
    files: [
      'close-reasons',
      'downloads-connect',
      'egress',
      'local-pool',
      'profiles-connect',
      'recordings-viewport',
      'seed',
      'session-edges',
      'tenant-isolation',
    ],
    why: "the stack's local pool: a few browsers on two cores; these hold, count or kill its browsers, and a full pool refuses the web's probes",
  },
  operator: {
    files: ['billing-checkout', 'billing-operator', 'operator', 'outbox', 'password-reset-shell'],
    why: 'the one instance operator (ADMIN_EMAILS): each file creates it if missing and deletes it after; operator checks that the installation has none',
  },
};
// These must own the machine: they run alone, after the others.
const ALONE: Record<string, string> = {
  'scale-out': 'three proxies and two web servers of its own, one SIGKILLed; a proxy starved of CPU past its 4 s lease would be taken for dead',
  'start-stop': 'a second whole stack (PostgreSQL, web, proxy, pool) started, given a session and stopped with Ctrl-C',
  'recordings-jobs': "kills job workers mid-encode: whether an encode outlives its job's expiry (and is retried once more) depends on ffmpeg having the cores",
};
const CONCURRENCY = Number(process.env.TEST_CONCURRENCY ?? 3);
const FILE_TIMEOUT_MS = 15 * 60_000;
// Lanes and the alone list name integration files (e2e/api/<name>.test.ts).
const nameOf = (file: string) => (file.startsWith(path.join('e2e', 'api')) ? path.basename(file).replace(/\.test\.ts$/, '') : file);
const testSchedule = {
  concurrency: CONCURRENCY,
  laneOf: (file: string) => Object.keys(LANES).find((lane) => LANES[lane]!.files.includes(nameOf(file))),
  alone: (file: string) => nameOf(file) in ALONE,
  live: CONCURRENCY === 1,
};

const unitFiles = [...find('lib', '.test.ts'), ...find('proxy', '.test.ts'), ...find('scripts', '.test.ts')];
const apiFiles = find('e2e/api', '.test.ts');
const browserFiles = find('e2e/browser', '.spec.ts');

let passed = 0;
let failed = 0;
/** What failed, by file, for the list at the end (a long log's tail is what CI shows). */
const failures: { file: string; lines: string[] }[] = [];
const timings: Pick<FileRun, 'file' | 'ms' | 'cpuMs'>[] = [];
const phases: string[] = [];

/** Runs one part of the suite and notes how long it took, for the summary at the end. */
async function phase<T>(name: string, work: () => Promise<T>): Promise<T> {
  const phaseStarted = Date.now();
  try {
    return await work();
  } finally {
    phases.push(`${name} ${Math.round((Date.now() - phaseStarted) / 1000)} s`);
  }
}

/** Runs node:test files through the scheduler and adds their counts and times to the totals. */
async function nodeTests(files: string[], env: (file: string) => NodeJS.ProcessEnv, schedule: Omit<Schedule, 'log' | 'fileTimeoutMs'>): Promise<void> {
  if (files.length === 0) return;
  const compiled = await compileTestFiles(files);
  const runs = await runTestFiles(files, env, {
    ...schedule,
    compiled,
    log,
    fileTimeoutMs: FILE_TIMEOUT_MS,
    timesFile: path.join('node_modules', '.cache', 'test-times.json'),
  });
  for (const run of runs) {
    passed += run.passed;
    failed += run.failed;
    timings.push(run);
    if (run.failed > 0) failures.push({ file: run.file, lines: run.failures ?? [] });
  }
}
/**
 * The files compiled ahead (scripts/lib/compile.ts). If that fails, it counts as a failure and every
 * file runs under tsx as before (a file that does not compile then fails on its own).
 */
async function compileTestFiles(files: string[]): Promise<Map<string, string> | undefined> {
  const compileStarted = Date.now();
  try {
    const compiled = await compileEntries(files, path.join('node_modules', '.cache', 'test-bundles'));
    log(`compiled ${files.length} test files in ${((Date.now() - compileStarted) / 1000).toFixed(1)} s`);
    return compiled;
  } catch (error) {
    failed += 1;
    log(`FAILED: compiling the test files; they run under tsx instead:\n${(error as Error).message}`);
    return undefined;
  }
}

/**
 * tsc over the whole tree, ESLint and the formatter's check, cached: one test each. tsc waits for `built`, the stack's
 * production build, whose route types it checks too (the build itself skips Next's check of the app).
 */
async function runChecks(built: Promise<unknown>): Promise<void> {
  const checks = [
    { name: 'typecheck', args: [tscBin, '--noEmit', '-p', '.'], hint: 'tsc --noEmit', after: built },
    { name: 'lint', args: [eslintBin, '--cache', '--cache-location', 'node_modules/.cache/eslint/', '.'], hint: 'npm run lint' },
    { name: 'format', args: [prettierBin, '--check', '--cache', '--cache-location', 'node_modules/.cache/prettier/cache', '.'], hint: 'npm run format' },
  ];
  await Promise.all(
    checks.map(async (check) => {
      await check.after;
      const checkStarted = Date.now();
      const { code, output } = await runCaptured(check.args, process.env);
      process.stdout.write(output);
      if (code === 0) passed++;
      else {
        failed++;
        failures.push({ file: `(${check.name})`, lines: [`${check.hint}: its errors are printed above`] });
      }
      timings.push({ file: `(${check.name})`, ms: Date.now() - checkStarted });
      log(code === 0 ? `${check.name}: ok` : `${check.name}: FAILED (${check.hint}, errors above)`);
    }),
  );
}

/** The stack every integration and browser test talks to, with the stand-ins it needs. */
async function startTestStack(onBuilt: () => void) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'br-test-'));
  const mail = await startMailCatcher();
  // Cloud-browser vendors we cannot run: real HTTP servers playing their documented APIs.
  const [vendorOne, vendorTwo] = await Promise.all([startAdapterOneVendor(), startAdapterTwoVendor()]);
  const [webPort, proxyPort, pgPort, poolPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  delete process.env.DATABASE_URL; // the tests own a scratch database, whatever the shell says
  const stack = await startStack({
    dataDir,
    webPort,
    proxyPort,
    poolPort,
    embeddedPostgresPort: pgPort,
    host: '127.0.0.1',
    log,
    quiet: !process.env.TEST_VERBOSE,
    buildChecksTypes: false,
    onBuilt,
    // PRIVATE_NETWORK=allow: the tests' pages, browsers and vendor stand-ins are all on this
    // machine's loopback. The egress tests that need `deny` start their own processes with it.
    extraEnv: {
      PRIVATE_NETWORK: 'allow',
      SMTP_URL: mail.smtpUrl,
      MAIL_FROM: 'Browser Router <no-reply@test.local>',
      LOG_LEVEL: process.env.TEST_VERBOSE ? 'info' : 'warn',
      SIGN_UPS_PER_HOUR_PER_IP: '100000',
      PASSWORD_RESETS_PER_HOUR_PER_IP: '100000',
      SIGN_IN_FAILURES_PER_IP: '100000',
      ADMIN_EMAILS: 'operator@test.local',
      LOCAL_POOL_AUTO_PROVIDER: '0',
      ...TEST_SETTINGS,
      ADAPTER_ONE_BASE_URL: vendorOne.url,
      ADAPTER_TWO_BASE_URL: vendorTwo.url,
    },
  });
  const env = {
    ...stack.env,
    TEST_WEB_URL: stack.webUrl,
    TEST_PROXY_URL: stack.proxyUrl,
    TEST_MAIL_URL: mail.httpUrl,
    LOG_LEVEL: 'silent',
    TEST_ADAPTER_ONE_URL: vendorOne.url,
    TEST_ADAPTER_TWO_URL: vendorTwo.url,
    TEST_POOL_URL: stack.poolUrl,
  };
  const stop = async () => {
    await stack.stop();
    await mail.stop();
    await Promise.all([vendorOne.stop(), vendorTwo.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { env, stop };
}

/** The Playwright specs (playwright.config.ts), counted from its JSON report. */
async function runBrowserSpecs(env: NodeJS.ProcessEnv): Promise<void> {
  const reportFile = path.join(os.tmpdir(), `br-pw-${process.pid}.json`);
  // With `--files`, only the matching specs (Playwright takes them as arguments); with `--trace`,
  // a Playwright trace of each failed test (recording them costs a third of the phase's time).
  const trace = process.argv.includes('--trace') ? ['--trace', 'retain-on-failure'] : [];
  await runToEnd([path.join('node_modules', '@playwright', 'test', 'cli.js'), 'test', ...trace, ...(filter ? browserFiles : [])], {
    ...env,
    PLAYWRIGHT_JSON_OUTPUT_NAME: reportFile,
  });
  const report = readReport(reportFile);
  if (!report) {
    failed += 1;
    return;
  }
  passed += report.stats.expected + report.stats.flaky;
  failed += report.stats.unexpected;
  timings.push(...specTimes(report));
  failures.push(...specFailures(report));
}

const started = Date.now();
log(`running ${unitFiles.length} unit, ${apiFiles.length} integration and ${browserFiles.length} browser test files`);
const wantUnit = !only || only === 'unit';
const wantApi = (!only || only === 'api') && apiFiles.length > 0;
const wantBrowser = (!only || only === 'browser') && browserFiles.length > 0;
// The services and the gateway command compiled first (a second at most), so that the unit files
// that run the command while the stack starts use the compiled copy too (proxy/cli/gateway.mjs).
await compileServices(log).catch((error: Error) => log(`compiling the services failed (the stack's start will say why): ${error.message}`));
// Nothing waits for the stack but the files that need it: the checks and the unit files run while it
// starts (on a fresh clone, mostly the production build).
let markBuilt = () => {};
const built = new Promise<void>((resolve) => (markBuilt = resolve));
const stackStart = wantApi || wantBrowser ? phase('stack start', () => startTestStack(markBuilt)) : undefined;
stackStart?.catch(() => {}); // its failure is reported by the files it gates and rethrown below
void (stackStart ?? Promise.resolve()).then(markBuilt, markBuilt); // also when it failed before its build
const checks = wantUnit && !filter ? phase('checks', () => runChecks(built)) : undefined;
try {
  // Unit and integration files share one schedule, so the long ones of both start first and the
  // short ones fill the gaps; unit files get a plain environment, not the stack's.
  const unitEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test' };
  const files = [...(wantUnit ? unitFiles : []), ...(wantApi ? apiFiles : [])];
  let stackEnv: NodeJS.ProcessEnv = { ...process.env };
  const stackReady = stackStart?.then((stack) => {
    stackEnv = stack.env;
  });
  const isIntegration = (file: string) => file.startsWith('e2e');
  await phase('unit and integration', () =>
    nodeTests(files, (file) => (isIntegration(file) ? stackEnv : unitEnv), { ...testSchedule, gate: (file) => (isIntegration(file) ? stackReady : undefined) }),
  );
  await checks;
  if (wantBrowser) await phase('browser', async () => runBrowserSpecs((await stackStart!).env));
} finally {
  await (await stackStart?.catch(() => undefined))?.stop();
}

if (timings.length > 0) {
  log('the slowest files (browser specs: the sum of their tests, which run two at a time):');
  for (const line of slowestReport(timings)) log(line);
  for (const line of costliestReport(timings)) log(line);
}
for (const { file, lines } of failures) {
  log(`FAILED: ${file}`);
  for (const line of lines) log(`  ${line.replaceAll('\n', '\n  ')}`);
}
log(`finished in ${Math.round((Date.now() - started) / 1000)} s (${phases.join(', ')})`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
