// The merge of a session's capture into the profile it loaded, and the sealing of versions.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { mergeCapture } from './merge';
import { emptyState, fromPlaywright, stateSize, toPlaywright, type ProfileState } from './state';

process.env.ENCRYPTION_KEY ??= randomBytes(32).toString('base64');

const loaded = (): ProfileState => ({
  ...emptyState(),
  cookies: [{ name: 'sid', value: 'a', domain: 'shop.test', path: '/', session: true }],
  storage: {
    'https://shop.test': { localStorage: { token: 't1' }, sessionStorage: {} },
    'https://blog.test': { localStorage: { theme: 'dark' }, sessionStorage: {} },
  },
  storageArchive: Buffer.from('old archive').toString('base64'),
});

test('captured origins replace their loaded state, origins not read keep theirs, cookies are the captured ones', () => {
  const next = mergeCapture(loaded(), {
    cookies: [{ name: 'sid', value: 'b', domain: 'shop.test', path: '/', session: true }],
    storage: {
      'https://shop.test': { localStorage: { token: 't2' }, sessionStorage: {} },
      'https://new.test': { localStorage: { x: '1' }, sessionStorage: {} },
    },
    skippedOrigins: ['https://blog.test'],
    durationMs: 12,
  })!;
  assert.deepEqual(
    next.cookies.map((c) => c.value),
    ['b'],
  );
  assert.deepEqual(next.storage['https://shop.test']!.localStorage, { token: 't2' });
  assert.deepEqual(next.storage['https://blog.test']!.localStorage, { theme: 'dark' });
  assert.deepEqual(next.meta.capturedOrigins, ['https://blog.test', 'https://new.test', 'https://shop.test']);
  assert.deepEqual(next.meta.skippedOrigins, ['https://blog.test']);
  assert.equal(next.storageArchive, loaded().storageArchive, 'no snapshot: the loaded archive stays');
});

test('an origin the page emptied is saved empty; an empty origin never seen before is not added', () => {
  const next = mergeCapture(loaded(), {
    cookies: [],
    storage: { 'https://shop.test': { localStorage: {}, sessionStorage: {} }, 'https://blank.test': { localStorage: {}, sessionStorage: {} } },
    skippedOrigins: [],
    durationMs: 1,
  })!;
  assert.deepEqual(next.storage['https://shop.test']!.localStorage, {});
  assert.equal(next.storage['https://blank.test'], undefined);
});

test('the IndexedDB snapshot: files replace the archive, an empty snapshot removes it', () => {
  const capture = { cookies: loaded().cookies, storage: {}, skippedOrigins: [], durationMs: 1 };
  assert.equal(mergeCapture(loaded(), { ...capture, storageArchive: 'bmV3' })!.storageArchive, 'bmV3');
  assert.equal(mergeCapture(loaded(), { ...capture, storageArchive: '' })!.storageArchive, undefined);
});

test('an empty capture never replaces a profile that held state; an empty profile may stay empty', () => {
  const nothing = { cookies: [], storage: {}, skippedOrigins: [], durationMs: 1, storageArchive: '' };
  const justCookies: ProfileState = { ...emptyState(), cookies: loaded().cookies };
  assert.equal(mergeCapture(justCookies, nothing), null);
  assert.ok(mergeCapture(emptyState(), nothing));
});

test('a version sealed for one profile does not open as another (the profile id is associated data)', async () => {
  const { openState, sealState } = await import('./store');
  // A secret long enough that random ciphertext cannot hold it by chance (a 2-byte one did, once in
  // a few hundred runs).
  const secret = 'a-localStorage-secret-0123456789';
  const state: ProfileState = { ...loaded(), storage: { 'https://shop.test': { localStorage: { token: secret }, sessionStorage: {} } } };
  const sealed = sealState('profile-a', state);
  assert.deepEqual(openState('profile-a', sealed), state);
  assert.throws(() => openState('profile-b', sealed));
  assert.equal(sealed.includes(Buffer.from(secret)), false);
  assert.throws(() => gunzipSync(sealed), 'sealed, not only compressed');
});

test('Playwright storageState converts both ways unchanged; sizes count the archive', () => {
  const storageState = {
    cookies: [
      { name: 'sid', value: 'v', domain: '.shop.test', path: '/', expires: -1, httpOnly: true, secure: true, sameSite: 'None' as const },
      { name: 'pref', value: 'p', domain: 'shop.test', path: '/a', expires: 1_900_000_000.5, httpOnly: false, secure: false, sameSite: 'Strict' as const },
    ],
    origins: [{ origin: 'https://shop.test', localStorage: [{ name: 'k', value: 'v' }] }],
  };
  assert.deepEqual(toPlaywright(fromPlaywright(storageState)), storageState);
  const withArchive = { ...fromPlaywright(storageState), storageArchive: Buffer.alloc(3000).toString('base64') };
  assert.ok(stateSize(withArchive) - stateSize(fromPlaywright(storageState)) >= 3000);
});

test("the archive's copy of localStorage is not counted twice against the limits", () => {
  const json = fromPlaywright({ cookies: [], origins: [{ origin: 'https://shop.test', localStorage: [{ name: 'k', value: 'v'.repeat(1000) }] }] });
  const archive = Buffer.alloc(3999).toString('base64');
  const both = { ...json, storageArchive: archive, storageArchiveDuplicateBytes: 3000 };
  assert.equal(stateSize(both), stateSize(json) + 999);
  const merged = mergeCapture(json, {
    cookies: [],
    storage: {},
    skippedOrigins: [],
    durationMs: 1,
    storageArchive: archive,
    storageArchiveDuplicateBytes: 3000,
  })!;
  assert.equal(merged.storageArchiveDuplicateBytes, 3000);
  const stale = mergeCapture(both, {
    cookies: [],
    storage: {},
    skippedOrigins: [],
    durationMs: 1,
    storageArchive: Buffer.alloc(500).toString('base64'),
    storageArchiveDuplicateBytes: 0,
  })!;
  assert.equal(stale.storageArchiveDuplicateBytes, undefined);
});

test('the native export leaves out what only the service keeps', async () => {
  const { toNative } = await import('./state');
  const native = toNative({ ...emptyState(), storageArchive: 'AAAA', storageArchiveDuplicateBytes: 2 });
  assert.equal(native.storageArchive, 'AAAA');
  assert.equal('storageArchiveDuplicateBytes' in native, false);
});
