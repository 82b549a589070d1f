// The compiled entries behave as their sources under tsx: each module sees its own location (also
// when the output is copied elsewhere with its sources), a package loads from node_modules, a stack
// trace names the .ts file and line, and a file that does not compile is named.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { compileEntries, compileWithInputs } from './compile';

// Inside the project (its ignored build folder), so package imports resolve from its node_modules.
mkdirSync('.build', { recursive: true });
const scratch = mkdtempSync(path.join(process.cwd(), '.build', 'compile-test-'));
test.after(() => rmSync(scratch, { recursive: true, force: true }));
const relative = (file: string) => path.relative(process.cwd(), file);

function write(file: string, text: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

test('each module keeps its own import.meta; packages load from node_modules; stack traces name the .ts line', async () => {
  const helper = write(
    path.join(scratch, 'support', 'where.ts'),
    [
      'export const where = { url: import.meta.url, dirname: import.meta.dirname, filename: import.meta.filename };',
      'export function fail(): never {',
      "  throw new Error('from the helper');",
      '}',
    ].join('\n'),
  );
  const entry = write(
    path.join(scratch, 'api', 'entry.test.ts'),
    [
      "import { z } from 'zod';",
      "import { fail, where } from '../support/where';",
      'const self: { dirname: string; url: string; filename: string } = { url: import.meta.url, dirname: import.meta.dirname, filename: import.meta.filename };',
      "let stack = '';",
      "try { fail(); } catch (error) { stack = (error as Error).stack ?? ''; }",
      "const words = 'import.meta.url stays text in a string';",
      "console.log(JSON.stringify({ self, where, zod: z.string().parse('ok'), stack, words }));",
    ].join('\n'),
  );
  const compiled = await compileEntries([relative(entry)], path.join(scratch, 'out'));
  const output = compiled.get(relative(entry))!;
  assert.ok(output.startsWith(path.join(scratch, 'out')), output);

  const { stdout } = await promisify(execFile)(process.execPath, ['--enable-source-maps', output]);
  const seen = JSON.parse(stdout) as { self: Record<string, string>; where: Record<string, string>; zod: string; stack: string; words: string };
  assert.equal(seen.words, 'import.meta.url stays text in a string');
  assert.deepEqual(seen.self, { url: pathToFileURL(entry).href, dirname: path.dirname(entry), filename: entry });
  assert.deepEqual(seen.where, { url: pathToFileURL(helper).href, dirname: path.dirname(helper), filename: helper });
  assert.equal(seen.zod, 'ok');
  assert.match(seen.stack, /support[/\\]where\.ts:3:\d+/, seen.stack);
});

test('a file that does not compile is named with its line', async () => {
  const broken = write(path.join(scratch, 'broken.test.ts'), 'const x = ;\n');
  await assert.rejects(compileEntries([relative(broken)], path.join(scratch, 'out-broken')), (error: Error) => /broken\.test\.ts:1/.test(error.message));
});

test('copied elsewhere with its sources, the output finds the files beside each source in the copy', async () => {
  const project = path.join(scratch, 'project');
  write(path.join(project, 'src', 'beside.txt'), 'the original');
  write(
    path.join(project, 'src', 'read.ts'),
    "import { readFileSync } from 'node:fs';\nexport const text = readFileSync(new URL('./beside.txt', import.meta.url), 'utf8');\n",
  );
  const entry = write(
    path.join(project, 'main.ts'),
    "import { text } from './src/read';\nconsole.log(JSON.stringify({ text, dirname: import.meta.dirname }));\n",
  );
  const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'compiled-elsewhere-'));
  try {
    // As the gateway's package is made: the output under the copy's build folder, the sources beside it.
    const { entries, inputs } = await compileWithInputs([relative(entry)], path.join(elsewhere, '.build', 'out'), elsewhere);
    assert.deepEqual(inputs.sort(), [relative(entry), relative(path.join(project, 'src', 'read.ts'))].sort());
    cpSync(project, path.join(elsewhere, relative(project)), { recursive: true });
    write(path.join(elsewhere, relative(project), 'src', 'beside.txt'), 'the copy');
    rmSync(project, { recursive: true, force: true });
    const { stdout } = await promisify(execFile)(process.execPath, [entries.get(relative(entry))!]);
    assert.deepEqual(JSON.parse(stdout), { text: 'the copy', dirname: path.join(elsewhere, relative(project)) });
  } finally {
    rmSync(elsewhere, { recursive: true, force: true });
  }
});
