// The gateway launcher runs the compiled command only while every source it was made from is
// unchanged; an edited or deleted source, or a compile cut short, sends it back to tsx.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { compiledFromTheseSources } from './compiled-command.mjs';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

test('the compiled copy is used while its sources are exactly as compiled, and only then', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'gw-compiled-'));
  try {
    mkdirSync(path.join(root, 'proxy', 'cli'), { recursive: true });
    writeFileSync(path.join(root, 'proxy', 'cli', 'main.ts'), 'export const a = 1;\n');
    writeFileSync(path.join(root, 'lib.ts'), 'export const b = 2;\n');
    const dir = path.join(root, '.build', 'programs', 'v1');
    mkdirSync(dir, { recursive: true });
    const current = {
      version: 'v1',
      inputs: [
        ['proxy/cli/main.ts', sha('export const a = 1;\n')],
        ['lib.ts', sha('export const b = 2;\n')],
      ],
    };
    writeFileSync(path.join(root, '.build', 'programs', 'current.json'), JSON.stringify(current));
    assert.equal(compiledFromTheseSources(root), null, 'no "complete" mark: the compile was cut short');
    writeFileSync(path.join(dir, 'complete'), 'now\n');
    assert.equal(compiledFromTheseSources(root), dir);

    writeFileSync(path.join(root, 'lib.ts'), 'export const b = 3;\n');
    assert.equal(compiledFromTheseSources(root), null, 'an edited source');
    writeFileSync(path.join(root, 'lib.ts'), 'export const b = 2;\n');
    assert.equal(compiledFromTheseSources(root), dir, 'the same content again');
    unlinkSync(path.join(root, 'lib.ts'));
    assert.equal(compiledFromTheseSources(root), null, 'a source gone');
    assert.equal(compiledFromTheseSources(path.join(root, 'elsewhere')), null, 'nothing compiled');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
