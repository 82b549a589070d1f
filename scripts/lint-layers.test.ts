// The linter keeps the layers apart: code in lib/ or components/ that imports from app/ (by a
// relative path or the `@/` alias) is an error, while app/ importing lib/ is fine. Linted through
// ESLint's Node API with the repository's own config, as files at those paths would be (the text
// is handed to ESLint, so nothing is written into the tree other people are working in).
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { ESLint } from 'eslint';

const ROOT = path.resolve(import.meta.dirname, '..');
const RULE = 'import/no-restricted-paths';
const eslint = new ESLint({ cwd: ROOT });

async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === RULE && m.severity === 2).map((m) => m.message);
}

test('lib/ importing app/ through the @/ alias is an error', { timeout: 120_000 }, async () => {
  const errors = await layerErrors('lib/layer-probe.ts', "import '@/app/layout';\n");
  assert.equal(errors.length, 1, 'one import/no-restricted-paths error');
  assert.match(errors[0]!, /components\/ and lib\/ must not import from app\//);
});

test('lib/ importing app/ by a relative path is an error', { timeout: 120_000 }, async () => {
  assert.equal((await layerErrors('lib/client/layer-probe.ts', "import '../../app/layout';\n")).length, 1);
});

test('components/ importing app/ is an error too', { timeout: 120_000 }, async () => {
  assert.equal((await layerErrors('components/layer-probe.tsx', "import '@/app/layout';\n")).length, 1);
  assert.equal((await layerErrors('components/ui/layer-probe.tsx', "import '../../app/layout';\n")).length, 1);
});

test('app/ importing lib/ and lib/ importing lib/ are fine', { timeout: 120_000 }, async () => {
  assert.deepEqual(await layerErrors('app/layer-probe.ts', "import '@/lib/log';\n"), []);
  assert.deepEqual(await layerErrors('lib/layer-probe.ts', "import './log';\n"), []);
});
