// The compiled entries behave as their sources under tsx: each module sees its own location, a
// package loads from node_modules, a stack trace names the .ts file and line, and a file that does
// not compile is named.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { compileEntries } from './compile';

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
  const helper = write(path.join(scratch, 'support', 'where.ts'), [
    "export const where = { url: import.meta.url, dirname: import.meta.dirname, filename: import.meta.filename };",
    'export function fail(): never {',
    "  throw new Error('from the helper');",
    '}',
  ].join('\n'));
  const entry = write(path.join(scratch, 'api', 'entry.test.ts'), [
    "import { z } from 'zod';",
    "import { fail, where } from '../support/where';",
    'const self: { dirname: string; url: string; filename: string } = { url: import.meta.url, dirname: import.meta.dirname, filename: import.meta.filename };',
    "let stack = '';",
    'try { fail(); } catch (error) { stack = (error as Error).stack ?? \'\'; }',
    "const words = 'import.meta.url stays text in a string';",
    "console.log(JSON.stringify({ self, where, zod: z.string().parse('ok'), stack, words }));",
  ].join('\n'));
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
