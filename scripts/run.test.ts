// scripts/run.mjs, the runner of the project's programs: the copy compiled ahead while its sources
// are exactly as compiled, else the source under tsx; either way the program sees its own path and
// the arguments after it, as under tsx.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

const PROJECT = path.resolve(import.meta.dirname, '..');
const program = (kind: string) =>
  `const kind: string = '${kind}';\nconsole.log(JSON.stringify({ kind, argv1: process.argv[1], args: process.argv.slice(2) }));\n`;

test('the compiled copy while the program is as compiled, the source under tsx once it changed; its path and arguments as under tsx', async () => {
  // A project of one program, with the runner and its check of the compiled copy where they are here.
  const root = mkdtempSync(path.join(os.tmpdir(), 'run-mjs-'));
  try {
    for (const file of ['scripts/run.mjs', 'proxy/cli/compiled-command.mjs']) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      copyFileSync(path.join(PROJECT, file), path.join(root, file));
    }
    symlinkSync(path.join(PROJECT, 'node_modules'), path.join(root, 'node_modules'), 'dir');
    writeFileSync(path.join(root, 'tsconfig.json'), '{}');
    writeFileSync(path.join(root, 'package.json'), '{ "type": "module" }');
    writeFileSync(path.join(root, 'tool.ts'), program('source'));
    const compiled = path.join(root, '.build', 'programs', 'v1');
    mkdirSync(compiled, { recursive: true });
    writeFileSync(path.join(compiled, 'tool.mjs'), program('compiled').replace(': string', ''));
    writeFileSync(path.join(compiled, 'complete'), 'now\n');
    const inputs = [['tool.ts', createHash('sha256').update(program('source')).digest('hex')]];
    writeFileSync(path.join(root, '.build', 'programs', 'current.json'), JSON.stringify({ version: 'v1', inputs }));

    const run = async (...args: string[]) =>
      JSON.parse((await promisify(execFile)(process.execPath, [path.join(root, 'scripts', 'run.mjs'), ...args], { cwd: root })).stdout);
    assert.deepEqual(await run('tool.ts', 'one', '--two'), { kind: 'compiled', argv1: path.join(root, 'tool.ts'), args: ['one', '--two'] });
    writeFileSync(path.join(root, 'tool.ts'), program('edited source'));
    assert.deepEqual(await run('tool.ts', 'one'), { kind: 'edited source', argv1: path.join(root, 'tool.ts'), args: ['one'] });
    await assert.rejects(
      run(),
      (error: { code: number; stderr: string }) => error.code === 2 && /usage: node scripts\/run\.mjs <program\.ts>/.test(error.stderr),
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
