// bench/cli — what a `gateway browse` step costs as a coding agent pays it: a whole process of the
// real launcher (Node's start included), against a standalone Chromium (its /devtools/ address as
// --endpoint) and a page of the test site, beside baselines measured in the same run:
//  1. Startup: `node -e 0` (Node alone) and `node proxy/cli/gateway.mjs version` (the launcher's
//     tsx path: loader, commander and the command line's modules), p50 of --runs.
//  2. Warm step: `browse snapshot` on a session whose daemon and browser are up, p50/p95 of --runs
//     after 3 warm-ups, beside the toolkit's own snapshot of the same page in this process (the
//     browser's share) and the same command through commander (main.ts under tsx, as the launcher
//     ran every command before the browse shortcut). Target: p50 ≤ 150 ms.
//  3. First step: `browse open <page>` on a session that is not running (spawns the daemon, which
//     loads the toolkit, connects to the browser, opens a tab, loads the page and snapshots it),
//     median of --opens fresh sessions, beside the toolkit doing the same in this process (open a
//     browser session + navigate; "the page"). Target: first open − in-process ≤ 2 s.
//   npx tsx bench/cli.ts [--runs 20] [--opens 5]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium, type Chromium } from '../e2e/support/chromium';
import { startTestSite, type TestSite } from '../e2e/support/test-site';
import { navigate } from '../proxy/agent/actions';
import { snapshot } from '../proxy/agent/reading';
import { SessionSet } from '../proxy/agent/session-set';
import { fmt, percentile } from './lib';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '20' }, opens: { type: 'string', default: '5' } } });
const runs = Number(values.runs);
const opens = Number(values.opens);
const TARGETS = { snapshotP50Ms: 150, firstOpenBeyondMs: 2_000 };
const WARMUP = 3;
const ROOT = path.resolve(import.meta.dirname, '..');
const LAUNCHER = path.join(ROOT, 'proxy/cli/gateway.mjs');

const home = mkdtempSync(path.join(os.tmpdir(), 'br-bench-cli-'));
const env = { PATH: process.env.PATH, HOME: home, GW_DATA_DIR: path.join(home, 'data') } as unknown as NodeJS.ProcessEnv;
let browser: Chromium | null = null;
let site: TestSite | null = null;
let sessions: SessionSet | null = null;
const started: string[] = [];
let cleaning: Promise<void> | null = null;
const cleanup = () =>
  (cleaning ??= (async () => {
    // Each daemon is closed through the command line; one left behind would also end with its browser.
    await Promise.all(started.map((name) => run(['browse', 'close', '--session', name]).catch(() => {})));
    for (const step of [async () => sessions?.closeAll('bench over'), async () => browser?.stop(), async () => site?.close()]) {
      await step().catch((error: Error) => console.error(`[bench] cleanup: ${error.message}`));
    }
    rmSync(home, { recursive: true, force: true });
  })());
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cleanup().finally(() => process.exit(130)));

/** One process, timed from spawn to exit; its stdout (a non-zero exit is an error). */
function timedProcess(args: string[]): Promise<{ ms: number; stdout: string }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('close', (code) =>
      code === 0 ? resolve({ ms: performance.now() - t0, stdout }) : reject(new Error(`${args.join(' ')} exited ${code}: ${stderr.trim()}`)),
    );
  });
}
const run = (args: string[]) => timedProcess([LAUNCHER, ...args]);

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { n: s.length, p50: percentile(s, 50), p95: percentile(s, 95) };
};
async function repeat(times: number, work: () => Promise<number>, warmup = 0) {
  const samples: number[] = [];
  for (let i = -warmup; i < times; i++) {
    const ms = await work();
    if (i >= 0) samples.push(ms);
  }
  return stats(samples);
}
const pass = (ok: boolean) => (ok ? 'PASS' : 'MISS');

try {
  [browser, site] = await Promise.all([launchChromium(), startTestSite()]);
  const page = `${site.url}/agent/form`;
  const endpoint = ['--endpoint', browser.wsUrl];

  // 1. Startup baselines.
  const bare = await repeat(runs, async () => (await timedProcess(['-e', '0'])).ms, 1);
  const version = await repeat(runs, async () => (await run(['version'])).ms, 1);
  console.error('[bench] startup measured');

  // 3. First open of fresh sessions (a new daemon each), and the toolkit doing the same in-process.
  const firstOpens: number[] = [];
  for (let i = 0; i < opens; i++) {
    const name = `first-${i}`;
    started.push(name);
    const { ms, stdout } = await run(['browse', 'open', page, '--session', name, ...endpoint]);
    if (!/^Page: "Sign up"/.test(stdout)) throw new Error(`browse open printed:\n${stdout}`);
    firstOpens.push(ms);
    await run(['browse', 'close', '--session', name]);
  }
  sessions = new SessionSet({ kind: 'browser', connect: async () => ({ url: browser!.wsUrl }) }, { maxSessions: 1 });
  const inProcessOpens: number[] = [];
  for (let i = 0; i < opens; i++) {
    const t0 = performance.now();
    const session = await sessions.open({ pageConsole: true });
    await navigate(session, page);
    inProcessOpens.push(performance.now() - t0);
    await sessions.closeAll('next');
  }
  console.error('[bench] first opens measured');

  // 2. Warm snapshots: one session up, then whole processes; the toolkit's own snapshot; via commander.
  started.push('warm');
  await run(['browse', 'open', page, '--session', 'warm', ...endpoint]);
  const warm = await repeat(
    runs,
    async () => {
      const { ms, stdout } = await run(['browse', 'snapshot', '--session', 'warm']);
      if (!/^Page: "Sign up"/.test(stdout)) throw new Error(`browse snapshot printed:\n${stdout}`);
      return ms;
    },
    WARMUP,
  );
  const viaCommander = await repeat(
    Math.max(3, Math.round(runs / 4)),
    async () =>
      (
        await timedProcess([
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          "const { main } = await import('./proxy/cli/main.ts'); process.exitCode = await main(['browse', 'snapshot', '--session', 'warm']);",
        ])
      ).ms,
    1,
  );
  const session = await sessions.open();
  await navigate(session, page);
  const toolkit = await repeat(
    runs,
    async () => {
      const t0 = performance.now();
      await snapshot(session);
      return performance.now() - t0;
    },
    WARMUP,
  );
  await sessions.closeAll('done');
  console.error('[bench] warm snapshots measured');

  const version_ = (await (await fetch(`${browser.httpUrl}/json/version`)).json()) as { Browser: string };
  console.log(
    `cli benchmark: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), Node ${process.version}, ${version_.Browser}; page ${new URL(page).pathname} of the test site`,
  );
  console.log(`\n1. Startup, ms (${runs} processes each, p50 / p95)`);
  console.log(`  ${'node -e 0'.padEnd(44)}${fmt(bare.p50).padStart(8)}${fmt(bare.p95).padStart(8)}`);
  console.log(`  ${'node proxy/cli/gateway.mjs version (tsx)'.padEnd(44)}${fmt(version.p50).padStart(8)}${fmt(version.p95).padStart(8)}`);

  const beyondBare = warm.p50 - bare.p50;
  console.log(`\n2. Warm step: browse snapshot, ms (${runs} processes after ${WARMUP} warm-ups)`);
  console.log(`  ${'whole process p50 / p95'.padEnd(44)}${fmt(warm.p50).padStart(8)}${fmt(warm.p95).padStart(8)}`);
  console.log(`  ${'  vs node -e 0'.padEnd(44)}${`${fmt(warm.p50 / bare.p50, 2)}×`.padStart(8)}   (+${fmt(beyondBare)} ms)`);
  console.log(`  ${'  vs gateway version (tsx)'.padEnd(44)}${`${fmt(warm.p50 / version.p50, 2)}×`.padStart(8)}`);
  console.log(
    `  ${'  vs toolkit snapshot in-process p50'.padEnd(44)}${`${fmt(warm.p50 / toolkit.p50, 1)}×`.padStart(8)}   (toolkit ${fmt(toolkit.p50)} ms, p95 ${fmt(toolkit.p95)})`,
  );
  console.log(
    `  ${`through commander (main.ts, tsx), ${viaCommander.n} runs`.padEnd(44)}${fmt(viaCommander.p50).padStart(8)}${fmt(viaCommander.p95).padStart(8)}`,
  );

  const first = stats(firstOpens);
  const inProcess = stats(inProcessOpens);
  const beyond = first.p50 - inProcess.p50;
  console.log(`\n3. First step: browse open on a fresh session (daemon start included), ms (median of ${opens})`);
  console.log(`  ${'whole process p50 / p95'.padEnd(44)}${fmt(first.p50).padStart(8)}${fmt(first.p95).padStart(8)}`);
  console.log(`  ${'toolkit open + navigate in-process p50'.padEnd(44)}${fmt(inProcess.p50).padStart(8)}${fmt(inProcess.p95).padStart(8)}`);
  console.log(`  ${'  ratio / difference'.padEnd(44)}${`${fmt(first.p50 / inProcess.p50, 1)}×`.padStart(8)}   (+${fmt(beyond)} ms)`);

  console.log(`\n  target: warm snapshot p50 ≤ ${TARGETS.snapshotP50Ms} ms: ${pass(warm.p50 <= TARGETS.snapshotP50Ms)} (${fmt(warm.p50)} ms)`);
  console.log(
    `  target: first open ≤ ${TARGETS.firstOpenBeyondMs / 1000} s beyond the page (whole process − in-process open + navigate): ${pass(beyond <= TARGETS.firstOpenBeyondMs)} (${fmt(beyond)} ms)`,
  );
} finally {
  await cleanup();
}
