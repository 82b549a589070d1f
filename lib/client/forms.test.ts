import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiClientError } from './api-fetch';
import { fieldErrorsFromApi } from './forms';

test('field errors come from details, whatever the message says', () => {
  // A message whose text a '; '/':' parser would have split wrongly; details say what is where.
  const error = new ApiClientError('validation_error', 'token: this link is invalid or has expired; ask for a new one', 400, [
    { path: 'url', message: '169.254.169.254 is link-local; refused: not reachable' },
    { path: 'headers.X-A', message: 'header values must be strings' },
  ]);
  assert.deepEqual(fieldErrorsFromApi(error, ['url', 'headers']), {
    url: '169.254.169.254 is link-local; refused: not reachable',
    headers: 'Header values must be strings',
  });
  assert.deepEqual(fieldErrorsFromApi(error, ['headers.X-A']), { 'headers.X-A': 'Header values must be strings' });
  assert.equal(fieldErrorsFromApi(error, ['token']), null, 'the message is never parsed');
});

test('the first issue per field wins; unlisted fields, other codes and bare messages give null', () => {
  const error = new ApiClientError('validation_error', 'x', 400, [
    { path: 'label', message: 'enter a label' },
    { path: 'label', message: 'second' },
    { path: 'other', message: 'not a field of this request' },
  ]);
  assert.deepEqual(fieldErrorsFromApi(error, ['label']), { label: 'Enter a label' });
  assert.equal(fieldErrorsFromApi(new ApiClientError('validation_error', 'label: enter a label', 400), ['label']), null);
  assert.equal(fieldErrorsFromApi(new ApiClientError('conflict', 'label: taken', 409, [{ path: 'label', message: 'taken' }]), ['label']), null);
  assert.equal(fieldErrorsFromApi(new Error('label: x'), ['label']), null);
});
