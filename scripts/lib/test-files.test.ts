// The test scheduler: files side by side up to the concurrency, a lane's files one at a time, the
// files that must own the machine alone; counts from each file's own report; crashes and hangs fail.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { costliestReport, runTestFiles, slowestReport } from './test-files';

let dir: string;
before(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'br-sched-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** A test file of two tests; the first may fail, exit the process, or never end. */
function testFile(name: string, body: { fail?: boolean; crash?: boolean; hang?: boolean; exitOnBeforeExit?: boolean } = {}): string {
  const file = path.join(dir, `${name}.test.mjs`);
  writeFileSync(
    file,
    `
import { test } from 'node:test';
${body.exitOnBeforeExit ? "process.once('beforeExit', () => process.exit(0));" : ''}
test('${name} one', async () => {
  ${body.hang ? 'await new Promise(() => setInterval(() => {}, 1000));' : ''}
  ${body.crash ? 'process.exit(3);' : ''}
  ${body.fail ? "throw new Error('on purpose');" : ''}
});
test('${name} two', () => {});
`,
  );
  return file;
}
const nameOf = (file: string) => path.basename(file, '.test.mjs');

test('files run side by side; a lane takes turns; an alone file has nothing beside it; counts per file', async () => {
  const files = ['free1', 'free2', 'laneA', 'laneB', 'solo'].map((name) => testFile(name)).concat(testFile('failing', { fail: true }));
  // What the scheduler started and ended, in order, checked at each start.
  const running = new Set<string>();
  const ended = new Set<string>();
  const violations: string[] = [];
  const pending = runTestFiles(files, process.env, {
    concurrency: 5,
    fileTimeoutMs: 60_000,
    log: () => {},
    print: () => {},
    laneOf: (file) => (/lane/.test(file) ? 'shared' : undefined),
    alone: (file) => file.includes('solo'),
    onStart: (file) => {
      const name = nameOf(file);
      if (name.startsWith('lane') && [...running].some((other) => other.startsWith('lane'))) violations.push(`${name} started beside the other lane file`);
      if (name === 'solo' && (running.size > 0 || ended.size !== files.length - 1))
        violations.push(`solo started with ${[...running]} running, ${ended.size} ended`);
      running.add(name);
    },
    onEnd: (file) => {
      running.delete(nameOf(file));
      ended.add(nameOf(file));
    },
  });
  // The first files start at once, before the call returns: every free file and one lane file.
  const first = [...running].sort();
  assert.deepEqual(
    first.filter((name) => !name.startsWith('lane')),
    ['failing', 'free1', 'free2'],
    `the free files started together: ${first}`,
  );
  assert.equal(first.filter((name) => name.startsWith('lane')).length, 1, `one lane file at a time: ${first}`);
  const runs = await pending;
  assert.deepEqual(violations, []);
  const byName = new Map(runs.map((run) => [nameOf(run.file), run]));
  assert.deepEqual([...byName.keys()].sort(), ['failing', 'free1', 'free2', 'laneA', 'laneB', 'solo']);
  assert.deepEqual([byName.get('free1')!.passed, byName.get('free1')!.failed], [2, 0]);
  assert.deepEqual([byName.get('failing')!.passed, byName.get('failing')!.failed], [1, 1]);
  // The failure as the summary at the end of the run lists it: the test, where it is, its error.
  const [failure, ...others] = byName.get('failing')!.failures!;
  assert.deepEqual(others, []);
  assert.match(failure!, /^failing one\n {4}location: '.*failing\.test\.mjs:\d+:\d+'\n {4}failureType: 'testCodeFailure'\n {4}error: 'on purpose'/);
  assert.deepEqual(byName.get('free1')!.failures, []);
  assert.equal(runs.at(-1)!.file, files[4], 'the alone file ran last');
  assert.ok(
    runs.every((run) => run.ms > 0),
    'every file timed',
  );
});

test('a file that exits mid-test or hangs fails, even though its report counts no failure', async () => {
  // The crash gets a deadline only a hang reaches (its start may take seconds on a loaded machine);
  // the hang gets a short one, which it must meet.
  const run = (file: string, fileTimeoutMs: number) => runTestFiles([file], process.env, { concurrency: 1, fileTimeoutMs, log: () => {}, print: () => {} });
  const runs = (await Promise.all([run(testFile('crashing', { crash: true }), 60_000), run(testFile('hanging', { hang: true }), 3_000)])).flat();
  for (const run of runs) assert.ok(run.failed >= 1, `${run.file}: ${run.failed} failed`);
  const failures = new Map(runs.map((run) => [nameOf(run.file), run.failures]));
  assert.deepEqual(failures.get('crashing'), ['exited with 3, no test failed']);
  assert.equal(failures.get('hanging')!.at(-1), 'killed after 3 s');
});

test('the slowest files come first in the report, at most the count asked for', () => {
  const lines = slowestReport(
    [
      { file: 'a', ms: 1_000 },
      { file: 'b', ms: 30_500 },
      { file: 'c', ms: 2_000 },
    ],
    2,
  );
  assert.deepEqual(lines, ['   30.5 s  b', '    2.0 s  c']);
  const withCpu = slowestReport(
    [
      { file: 'a', ms: 1_000, cpuMs: 900 },
      { file: '(lint)', ms: 30_500 },
    ],
    2,
  );
  assert.deepEqual(withCpu, ['   30.5 s                (lint)', '    1.0 s     0.9 s CPU  a']);
});

test("a file's CPU counts the processes it started; the costliest files and the total are reported", async () => {
  // Burns CPU (not wall time, which a loaded machine stretches) in a child and then in the file.
  const burn = (ms: number) => `{ const s = process.cpuUsage(); while (process.cpuUsage(s).user + process.cpuUsage(s).system < ${ms * 1000}); }`;
  const file = path.join(dir, 'burning.test.mjs');
  writeFileSync(
    file,
    `
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
test('burns', () => {
  spawnSync(process.execPath, ['-e', ${JSON.stringify(burn(400))}]);
  ${burn(200)}
});
`,
  );
  const [run] = await runTestFiles([file], process.env, { concurrency: 1, fileTimeoutMs: 60_000, log: () => {}, print: () => {} });
  assert.ok(run!.cpuMs! >= 600, `${run!.cpuMs} ms of CPU`);
  assert.deepEqual(costliestReport([{ file: 'a', cpuMs: 1_500 }, { file: 'b', cpuMs: 30_000 }, { file: '(lint)' }], 1), [
    '32 s CPU in 2 test files; the most:',
    '   30.0 s CPU  b',
  ]);
});

test('a file whose process exits before its totals are written is counted from its results', async () => {
  const [run] = await runTestFiles([testFile('early-exit', { exitOnBeforeExit: true })], process.env, {
    concurrency: 1,
    fileTimeoutMs: 30_000,
    log: () => {},
    print: () => {},
  });
  assert.deepEqual([run!.passed, run!.failed], [2, 0]);
});

test('a gated file waits for its gate while the others run; a failed gate fails its files unrun', async () => {
  let open = () => {};
  const stack = new Promise<void>((resolve) => {
    open = resolve;
  });
  const broken = Promise.reject(new Error('no stack'));
  const started: string[] = [];
  const runs = await runTestFiles([testFile('gated'), testFile('ungated'), testFile('broken')], process.env, {
    concurrency: 3,
    fileTimeoutMs: 30_000,
    log: () => {},
    print: () => {},
    gate: (file) => (file.includes('gated') && !file.includes('ungated') ? stack : file.includes('broken') ? broken : undefined),
    onStart: (file) => started.push(nameOf(file)),
    // The gate opens only once the ungated file has ended: the gated one cannot have started before.
    onEnd: (file) => nameOf(file) === 'ungated' && open(),
  });
  assert.deepEqual(started, ['ungated', 'gated']);
  const byName = new Map(runs.map((run) => [nameOf(run.file), run]));
  assert.deepEqual([byName.get('gated')!.passed, byName.get('gated')!.failed], [2, 0]);
  assert.deepEqual([byName.get('broken')!.passed, byName.get('broken')!.failed], [0, 1]);
});
