// Preloaded into every node:test file process (`--import ./scripts/lib/assert-messages.mjs`, before or
// after `--import tsx`: plain JavaScript, so it needs no loader): a failing `assert.ok(value)` without
// a message fails at once instead of freezing its file for minutes.
//
// Why: Node 20 builds that message by quoting the call from the source file, at the line and column
// V8 reports. Under tsx those are positions in the transformed code (esbuild output with whitespace
// minified: nearly all of it on line 1), but Node reads the .ts file, so it looks for the call at an
// unrelated offset. When the file is at least 2,500 bytes longer than that column, findColumn()
// recurses without reading anything new and re-parses the file with acorn on every call (0.13-0.15 s
// each) until the stack overflows: minutes at 100% CPU, the test's own timeout never firing.
// --enable-source-maps changes nothing (Node reads the raw positions; tsx maps stacks already), and
// tsx has no setting to keep whitespace. With a message of ours Node never reads the file; the stack
// still points at the .ts line through tsx's source maps. A bare `assert(value)` cannot be wrapped
// here (the module itself is the function): write it as assert.ok(value).
import assert from 'node:assert';
import { inspect } from 'node:util';

// Fails as Node's own ok() does, with our message where the call gave none; thrown from here, not by
// delegating, so that the stack starts at the test's line rather than in this wrapper.
function ok(...args) {
  const [value, message] = args;
  if (value) return;
  if (message instanceof Error) throw message;
  const generated =
    args.length === 0
      ? 'No value argument passed to `assert.ok()`'
      : message == null
        ? `The expression evaluated to a falsy value: ${inspect(value)}`
        : undefined;
  const error = new assert.AssertionError({ message: generated ?? String(message), actual: value, expected: true, operator: '==', stackStartFn: ok });
  error.generatedMessage = generated !== undefined;
  throw error;
}

// `node:assert` and `node:assert/strict` export different objects, each with its own `ok`.
assert.ok = ok;
assert.strict.ok = ok;
