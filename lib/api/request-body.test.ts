import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError } from './errors';
import { MAX_BODY_BYTES, NO_BODY, isJsonMediaType, readJsonBody } from './request-body';

const post = (body: BodyInit | null, headers: Record<string, string>) =>
  new Request('http://web.test/v1/routers', { method: 'POST', body, headers, ...(body instanceof ReadableStream ? { duplex: 'half' } : {}) } as RequestInit);

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error));
    return error;
  }
  assert.fail('expected a refusal');
}

/** A body that never ends on its own: counts what was pulled, notes when it is cancelled. */
function endless(chunkBytes: number) {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.pulled += chunkBytes;
      controller.enqueue(new Uint8Array(chunkBytes).fill(0x20));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

test('JSON media types', () => {
  for (const ok of ['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/merge-patch+json'])
    assert.ok(isJsonMediaType(ok), ok);
  for (const bad of [null, '', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx', 'text/json'])
    assert.ok(!isJsonMediaType(bad), String(bad));
});

test('a declared Content-Length over 1 MB is refused before a byte is read', async () => {
  const { stream, state } = endless(64 * 1024);
  const error = await refusal(readJsonBody(post(stream, { 'content-type': 'application/json', 'content-length': String(MAX_BODY_BYTES + 1) })));
  assert.equal(error.code, 'payload_too_large');
  assert.equal(error.status, 413);
  assert.equal(state.pulled <= 64 * 1024 * 2, true, 'at most what the stream pre-fetched on its own');
});

test('a chunked body is counted as it arrives and cancelled at the cap, without waiting for its end', async () => {
  const { stream, state } = endless(64 * 1024);
  const error = await refusal(readJsonBody(post(stream, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' })));
  assert.equal(error.code, 'payload_too_large');
  assert.ok(state.cancelled, 'the stream was cancelled');
  assert.ok(state.pulled <= MAX_BODY_BYTES + 3 * 64 * 1024, `read ${state.pulled} bytes`);
});

test('exactly 1 MB is accepted', async () => {
  const json = JSON.stringify({ name: 'x'.repeat(MAX_BODY_BYTES - 11) });
  assert.equal(Buffer.byteLength(json), MAX_BODY_BYTES);
  assert.deepEqual(Object.keys((await readJsonBody(post(json, { 'content-type': 'application/json' }))) as object), ['name']);
});

test('an endpoint may allow more than 1 MB (profile uploads), and refuses past its own limit', async () => {
  const json = JSON.stringify({ name: 'x'.repeat(2 * MAX_BODY_BYTES) });
  assert.equal((await refusal(readJsonBody(post(json, { 'content-type': 'application/json' })))).code, 'payload_too_large');
  assert.deepEqual(Object.keys((await readJsonBody(post(json, { 'content-type': 'application/json' }), 3 * MAX_BODY_BYTES)) as object), ['name']);
  const declared = await refusal(
    readJsonBody(post(json, { 'content-type': 'application/json', 'content-length': String(3 * MAX_BODY_BYTES + 1) }), 3 * MAX_BODY_BYTES),
  );
  assert.match(declared.message, /3 MB\), the limit of this endpoint/);
  const { stream, state } = endless(64 * 1024);
  assert.equal(
    (await refusal(readJsonBody(post(stream, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }), 3 * MAX_BODY_BYTES))).code,
    'payload_too_large',
  );
  assert.ok(state.cancelled && state.pulled <= 3 * MAX_BODY_BYTES + 3 * 64 * 1024, `read ${state.pulled} bytes`);
});

test('a body that is not JSON is 415 before it is read; an empty one is no body, whatever its type', async () => {
  const { stream, state } = endless(1024);
  const refused = await refusal(readJsonBody(post(stream, { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' })));
  assert.equal(refused.code, 'unsupported_media_type');
  assert.equal(refused.status, 415);
  assert.match(refused.message, /Content-Type: application\/json.*got "text\/plain"/);
  assert.ok(state.pulled <= 2 * 1024);
  assert.equal((await refusal(readJsonBody(post('{"a":1}', {})))).code, 'unsupported_media_type');
  assert.equal(await readJsonBody(post(null, {})), NO_BODY);
  assert.equal(await readJsonBody(post('', { 'content-type': 'text/plain' })), NO_BODY);
  assert.equal(await readJsonBody(post('  \n', { 'content-type': 'application/json' })), NO_BODY);
});

test('the bytes must be UTF-8 and JSON', async () => {
  const notUtf8 = await refusal(
    readJsonBody(post(new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]), { 'content-type': 'application/json' })),
  );
  assert.deepEqual([notUtf8.code, notUtf8.message], ['validation_error', 'the request body is not valid UTF-8']);
  const notJson = await refusal(readJsonBody(post('{nope', { 'content-type': 'application/json' })));
  assert.deepEqual([notJson.code, notJson.message], ['validation_error', 'the request body is not valid JSON']);
  assert.deepEqual(await readJsonBody(post('{"name":"a\\u0000b"}', { 'content-type': 'application/json; charset=utf-8' })), { name: 'a\u0000b' });
});
