// The test scheduler: files side by side up to the concurrency, a lane's files one at a time, the
// files that must own the machine alone; counts from each file's own report; crashes and hangs fail.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { runTestFiles, slowestReport } from './test-files';

let dir: string;
let events: string;
before(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'br-sched-'));
  events = path.join(dir, 'events.log');
  writeFileSync(events, '');
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** A test file that logs when it starts and ends and holds on for `ms` in between (until a marker file appears, when given). */
function testFile(name: string, body: { ms?: number; fail?: boolean; crash?: boolean; hang?: boolean; exitOnBeforeExit?: boolean } = {}): string {
  const file = path.join(dir, `${name}.test.mjs`);
  writeFileSync(file, `
import { appendFileSync } from 'node:fs';
import { test } from 'node:test';
${body.exitOnBeforeExit ? 'process.once(\'beforeExit\', () => process.exit(0));' : ''}
const note = (what) => appendFileSync(${JSON.stringify(events)}, \`\${what} ${name} \${Date.now()}\\n\`);
test('${name} one', async () => {
  note('start');
  ${body.hang ? 'await new Promise(() => setInterval(() => {}, 1000));' : ''}
  await new Promise((r) => setTimeout(r, ${body.ms ?? 150}));
  note('end');
  ${body.crash ? 'process.exit(3);' : ''}
  ${body.fail ? "throw new Error('on purpose');" : ''}
});
test('${name} two', () => {});
`);
  return file;
}

/** Each file's [start, end] from the events it logged. */
function spans(): Map<string, [number, number]> {
  const result = new Map<string, [number, number]>();
  for (const line of readFileSync(events, 'utf8').trim().split('\n')) {
    const [what, name, at] = line.split(' ') as [string, string, string];
    const span = result.get(name) ?? [0, 0];
    span[what === 'start' ? 0 : 1] = Number(at);
    result.set(name, span);
  }
  return result;
}
const overlap = (a: [number, number], b: [number, number]) => a[0] < b[1] && b[0] < a[1];

test('files run side by side; a lane takes turns; an alone file has nothing beside it; counts per file', async () => {
  const files = [testFile('free1', { ms: 600 }), testFile('free2', { ms: 600 }), testFile('laneA', { ms: 600 }), testFile('laneB', { ms: 600 }), testFile('solo', { ms: 200 }), testFile('failing', { fail: true })];
  const runs = await runTestFiles(files, process.env, {
    concurrency: 5, fileTimeoutMs: 60_000, log: () => {}, print: () => {},
    laneOf: (file) => (/lane/.test(file) ? 'shared' : undefined),
    alone: (file) => file.includes('solo'),
  });
  const byName = new Map(runs.map((run) => [path.basename(run.file, '.test.mjs'), run]));
  assert.deepEqual([...byName.keys()].sort(), ['failing', 'free1', 'free2', 'laneA', 'laneB', 'solo']);
  assert.deepEqual([byName.get('free1')!.passed, byName.get('free1')!.failed], [2, 0]);
  assert.deepEqual([byName.get('failing')!.passed, byName.get('failing')!.failed], [1, 1]);
  const s = spans();
  assert.ok(overlap(s.get('free1')!, s.get('free2')!), 'two free files ran at the same time');
  assert.ok(!overlap(s.get('laneA')!, s.get('laneB')!), 'the lane ran its files one at a time');
  for (const [name, span] of s) if (name !== 'solo') assert.ok(!overlap(span, s.get('solo')!), `${name} ran beside the alone file`);
  assert.ok(s.get('solo')![0] >= Math.max(...[...s.values()].filter((v) => v !== s.get('solo')).map((v) => v[1])), 'the alone file ran last');
  assert.ok(runs.every((run) => run.ms > 0));
});

test('a file that exits mid-test or hangs fails, even though its report counts no failure', async () => {
  const runs = await runTestFiles([testFile('crashing', { crash: true }), testFile('hanging', { hang: true })], process.env, { concurrency: 2, fileTimeoutMs: 3_000, log: () => {}, print: () => {} });
  for (const run of runs) assert.ok(run.failed >= 1, `${run.file}: ${run.failed} failed`);
});

test('the slowest files come first in the report, at most the count asked for', () => {
  const lines = slowestReport([{ file: 'a', ms: 1_000 }, { file: 'b', ms: 30_500 }, { file: 'c', ms: 2_000 }], 2);
  assert.deepEqual(lines, ['   30.5 s  b', '    2.0 s  c']);
});

test('a file whose process exits before its totals are written is counted from its results', async () => {
  const [run] = await runTestFiles([testFile('early-exit', { exitOnBeforeExit: true })], process.env, { concurrency: 1, fileTimeoutMs: 30_000, log: () => {}, print: () => {} });
  assert.deepEqual([run!.passed, run!.failed], [2, 0]);
});
