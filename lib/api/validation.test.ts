import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { createRouterSchema, updateRouterSchema } from '../routers/schemas';
import { createProviderSchema } from '../providers/schemas';
import { createWebhookSchema } from '../webhooks/schemas';
import { MAX_FIELD_ISSUES, invalidFields } from './errors';
import { clientInput, fieldIssues, NUL_MESSAGE, nulIssues } from './validation';

const issuesOf = (schema: z.ZodType, input: unknown, where = 'body') => {
  const result = schema.safeParse(input, clientInput);
  assert.ok(!result.success, 'expected the input to be refused');
  return fieldIssues(result.error, where);
};

test('a wrong type says what was expected and what came; "required" only when the field is absent', () => {
  const schema = z.strictObject({
    maxConcurrent: z.number().int().optional(),
    name: z.string(),
    on: z.boolean().optional(),
    tags: z.array(z.string()).optional(),
  });
  assert.deepEqual(issuesOf(schema, { maxConcurrent: 1500.5, name: 'x' }), [{ path: 'maxConcurrent', message: 'expected an integer, got 1500.5' }]);
  assert.deepEqual(issuesOf(schema, { name: 5 }), [{ path: 'name', message: 'expected a string, got number' }]);
  assert.deepEqual(issuesOf(schema, { name: null }), [{ path: 'name', message: 'expected a string, got null' }]);
  assert.deepEqual(issuesOf(schema, {}), [{ path: 'name', message: 'required' }]);
  assert.deepEqual(issuesOf(schema, { name: 'x', on: 'yes', tags: 'a' }), [
    { path: 'on', message: 'expected true or false, got string' },
    { path: 'tags', message: 'expected a list, got string' },
  ]);
  assert.deepEqual(issuesOf(schema, [1, 2]), [{ path: 'body', message: 'expected an object, got array' }]);
  assert.deepEqual(issuesOf(schema, undefined), [{ path: 'body', message: 'required' }]);
});

test('paths are dotted through lists and records; unknown keys are each their own issue', () => {
  const schema = z.strictObject({ headers: z.array(z.strictObject({ name: z.string(), value: z.string() })) });
  assert.deepEqual(
    issuesOf(schema, {
      headers: [
        { name: 'a', value: 'b' },
        { name: 1, value: 'c', extra: true },
      ],
      other: 1,
    }),
    [
      { path: 'headers.1.name', message: 'expected a string, got number' },
      { path: 'headers.1.extra', message: 'not a field of this request' },
      { path: 'other', message: 'not a field of this request' },
    ],
  );
});

test('the schemas of the API keep their own wording (a wrong type also says what came); the rest is worded by the wrapper', () => {
  // Before, 1500.5 read "queueMaxSize: required" and an unknown key "body: Unrecognized key".
  assert.deepEqual(issuesOf(updateRouterSchema, { queueMaxSize: 1500.5, strategy: 7, bogus: 1 }), [
    { path: 'strategy', message: 'must be one of priority-chain, round-robin, least-connections, latency-optimized, weighted' },
    { path: 'queueMaxSize', message: 'must be a whole number, got 1500.5' },
    { path: 'bogus', message: 'not a field of this request' },
  ]);
  assert.deepEqual(issuesOf(updateRouterSchema, { connectionTimeoutMs: 'abc', cooldownFailureThreshold: '0.5' }), [
    { path: 'connectionTimeoutMs', message: 'expected a number, got string' },
    { path: 'cooldownFailureThreshold', message: 'expected a number, got string' },
  ]);
  assert.deepEqual(issuesOf(createRouterSchema, { name: 5 }), [{ path: 'name', message: 'expected a string, got number' }]);
  // A schema's own message for a wrong type gives way to "required" when the field is absent.
  assert.deepEqual(issuesOf(createWebhookSchema, { label: 'x' }), [{ path: 'url', message: 'required' }]);
  assert.deepEqual(issuesOf(createWebhookSchema, { label: 'x', url: 5 }), [{ path: 'url', message: 'enter the address to POST to, got number' }]);
  assert.deepEqual(issuesOf(createProviderSchema, { slug: 'ok', url: 'ws://x.test', weight: 1.5, maxConcurrent: 2000 }), [
    { path: 'weight', message: 'use a whole number, got 1.5' },
    { path: 'maxConcurrent', message: 'use 1 to 1000' },
  ]);
  assert.deepEqual(issuesOf(z.object({ page: z.coerce.number().int().min(1) }), { page: 'x' }, 'query'), [{ path: 'page', message: 'expected a number' }]);
  assert.deepEqual(issuesOf(z.object({ page: z.coerce.number().int().min(1) }), { page: '1.5' }, 'query'), [
    { path: 'page', message: 'expected an integer, got 1.5' },
  ]);
});

test('the summary is one line; a flood of issues is cut to the first few', () => {
  const error = invalidFields(Array.from({ length: 1000 }, (_, i) => ({ path: `items.${i}`, message: 'expected a string, got number' })));
  assert.equal(error.details!.length, MAX_FIELD_ISSUES);
  assert.match(error.message, /^items\.0: expected a string, got number; items\.1: /);
  assert.match(error.message, /; and 980 more$/);
  assert.ok(!error.message.includes('\n'));
});

test('NUL characters are found in any string or key, with their path', () => {
  assert.deepEqual(nulIssues({ name: 'a\u0000b', ok: 'fine', headers: [{ name: 'x' }, { name: 'y\u0000' }] }, 'body'), [
    { path: 'name', message: NUL_MESSAGE },
    { path: 'headers.1.name', message: NUL_MESSAGE },
  ]);
  assert.deepEqual(nulIssues({ 'bad\u0000key': 1 }, 'body'), [{ path: 'bad\\u0000key', message: NUL_MESSAGE }]);
  assert.deepEqual(nulIssues('\u0000', 'body'), [{ path: 'body', message: NUL_MESSAGE }]);
  assert.deepEqual(nulIssues({ n: 1, b: true, z: null, s: 'text' }, 'body'), []);
});

// A recursive walk overflows the stack at this depth; one that rebuilds each path as it goes is
// quadratic in it (200,000² steps), which the test's limit stops long before it ends. A wall-clock
// bound on the linear walk would measure the machine's load instead.
test('the NUL walk is iterative and bounded: deep or huge bodies neither overflow the stack nor take long', { timeout: 60_000 }, () => {
  const depth = 200_000;
  const deep = JSON.parse('['.repeat(depth) + '"\\u0000"' + ']'.repeat(depth));
  const [found] = nulIssues(deep, 'body');
  assert.equal(found!.path.split('.').length, depth);
  const many = nulIssues(
    Array.from({ length: 100_000 }, () => '\u0000'),
    'body',
  );
  assert.equal(many.length, MAX_FIELD_ISSUES);
});
