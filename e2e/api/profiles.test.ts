// Profiles (docs/api.md, Profiles): the resource, create and import, export in both shapes, the
// versions and restore, validation, roles, other workspaces, the limits (10 MB, 500 per workspace,
// 500 MB per workspace) and the state being sealed at rest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { call, expectError, expectOk, newUser, signIn, WEB, type TestUser } from '../support/api';
import { seedMember, seedProfiles, seedProvider } from '../support/seed';

const profileFields = [
  'capturedOrigins',
  'cookieCount',
  'createdAt',
  'id',
  'lastUsedAt',
  'name',
  'saving',
  'sizeBytes',
  'slug',
  'updatedAt',
  'version',
  'workspaceId',
];
const MB = 1024 * 1024;

const as = (user: TestUser, workspaceId?: string) => ({ auth: { token: user.token }, ...(workspaceId ? { headers: { 'x-workspace-id': workspaceId } } : {}) });

/** A Playwright storage state as `context.storageState({ indexedDB: true })` writes it, every default spelled out. */
function playwrightState() {
  return {
    cookies: [
      {
        name: 'sid',
        value: 'session-SECRET-7f3a',
        domain: 'shop.example.test',
        path: '/',
        expires: -1,
        httpOnly: true,
        secure: true,
        sameSite: 'Lax' as const,
      },
      {
        name: 'remember',
        value: 'persistent-SECRET-91c2',
        domain: '.example.test',
        path: '/account',
        expires: 1_893_456_000.5,
        httpOnly: false,
        secure: false,
        sameSite: 'None' as const,
      },
    ],
    origins: [
      {
        origin: 'https://shop.example.test',
        localStorage: [
          { name: 'cart', value: '{"items":[1,2]}' },
          { name: 'token', value: 'ls-SECRET-55d0' },
        ],
      },
      {
        origin: 'http://localhost:8080',
        localStorage: [{ name: 'theme', value: 'dark' }],
        indexedDB: [
          {
            name: 'app-db',
            version: 3,
            stores: [
              {
                name: 'notes',
                autoIncrement: true,
                keyPath: 'id',
                records: [{ value: { id: 1, text: 'hello' } }, { value: { id: 2, text: 'world' } }],
                indexes: [{ name: 'by-text', keyPath: 'text', multiEntry: false, unique: false }],
              },
            ],
          },
        ],
      },
    ],
  };
}

/** A captured state (the native shape) with a session cookie, a persistent one and sessionStorage. */
function capturedState() {
  return {
    version: 1,
    capturedAt: '2026-01-02T03:04:05.000Z',
    cookies: [
      { name: 'sid', value: 'cap-SECRET-1', domain: 'app.example.test', path: '/', httpOnly: true, secure: true, sameSite: 'Strict' },
      { name: 'pref', value: 'compact', domain: 'app.example.test', path: '/', expires: 1_900_000_000 },
    ],
    storage: {
      'https://app.example.test': { localStorage: { lang: 'en' }, sessionStorage: { step: '2' } },
    },
    meta: { capturedOrigins: ['https://app.example.test'], skippedOrigins: ['https://ads.example.test'], durationMs: 120 },
  };
}

async function versionRows(profileId: string) {
  const { db } = await import('../../lib/db');
  return db.profileVersion.findMany({ where: { profileId }, orderBy: { version: 'asc' } });
}

test('create (empty and captured), list, get, rename, export, delete; the Profile resource', async () => {
  const user = await newUser('prof');
  const auth = { token: user.token };

  const empty = expectOk(await call('POST', '/v1/profiles', { auth, body: { slug: 'empty.one_1', name: 'Empty' } }), 201);
  assert.deepEqual(Object.keys(empty).sort(), profileFields);
  assert.deepEqual(
    {
      slug: empty.slug,
      name: empty.name,
      workspaceId: empty.workspaceId,
      sizeBytes: empty.sizeBytes,
      capturedOrigins: empty.capturedOrigins,
      version: empty.version,
      cookieCount: empty.cookieCount,
      saving: empty.saving,
      lastUsedAt: empty.lastUsedAt,
    },
    {
      slug: 'empty.one_1',
      name: 'Empty',
      workspaceId: user.workspaceId,
      sizeBytes: 0,
      capturedOrigins: [],
      version: 0,
      cookieCount: 0,
      saving: false,
      lastUsedAt: null,
    },
  );
  assert.deepEqual(await versionRows(empty.id), [], 'an empty profile has no version');

  const captured = expectOk(await call('POST', '/v1/profiles', { auth, body: { slug: 'app-login', name: 'App login', captured: capturedState() } }), 201);
  assert.deepEqual([captured.version, captured.cookieCount, captured.capturedOrigins], [1, 2, ['https://app.example.test']]);
  assert.ok(captured.sizeBytes > 100 && Number.isInteger(captured.sizeBytes), `sizeBytes ${captured.sizeBytes}`);
  assert.equal((await versionRows(captured.id))[0]!.source, 'create');

  const list = expectOk(await call('GET', '/v1/profiles', { auth }));
  assert.deepEqual({ total: list.total, page: list.page, pageSize: list.pageSize }, { total: 2, page: 1, pageSize: 25 });
  assert.deepEqual(
    list.items.map((p: any) => p.slug),
    ['app-login', 'empty.one_1'],
    'newest first',
  );
  assert.deepEqual(list.items[0], captured);
  const paged = expectOk(await call('GET', '/v1/profiles?page=2&pageSize=1', { auth }));
  assert.deepEqual(
    { slugs: paged.items.map((p: any) => p.slug), total: paged.total, page: paged.page, pageSize: paged.pageSize },
    { slugs: ['empty.one_1'], total: 2, page: 2, pageSize: 1 },
  );
  assert.deepEqual(expectOk(await call('GET', '/v1/profiles/app-login', { auth })), captured);

  const renamed = expectOk(await call('PATCH', '/v1/profiles/app-login', { auth, body: { name: '  App (EU)  ' } }));
  assert.deepEqual(
    { name: renamed.name, slug: renamed.slug, version: renamed.version, sizeBytes: renamed.sizeBytes },
    { name: 'App (EU)', slug: 'app-login', version: 1, sizeBytes: captured.sizeBytes },
  );

  // The export in the envelope; session cookies included, sessionStorage never kept. With
  // download=1 the state itself, as a named file.
  const exported = await call('GET', '/v1/profiles/app-login/export', { auth });
  assert.equal(exported.status, 200);
  assert.match(exported.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(exported.headers.get('cache-control'), 'no-store');
  assert.ok(exported.headers.get('x-ratelimit-limit'), 'counted like the rest of the group');
  assert.equal(exported.headers.get('content-disposition'), null);
  const file = await call('GET', '/v1/profiles/app-login/export?download=1', { auth });
  assert.equal(file.headers.get('content-disposition'), 'attachment; filename="app-login.native.json"');
  assert.equal(file.body.ok, undefined);
  assert.deepEqual(file.body, expectOk(exported));
  assert.deepEqual(expectOk(exported), {
    version: 1,
    capturedAt: '2026-01-02T03:04:05.000Z',
    cookies: [
      { name: 'sid', value: 'cap-SECRET-1', domain: 'app.example.test', path: '/', httpOnly: true, secure: true, sameSite: 'Strict', session: true },
      { name: 'pref', value: 'compact', domain: 'app.example.test', path: '/', expires: 1_900_000_000, session: false },
    ],
    storage: { 'https://app.example.test': { localStorage: { lang: 'en' }, sessionStorage: {} } },
    meta: { capturedOrigins: ['https://app.example.test'], skippedOrigins: ['https://ads.example.test'], durationMs: 120 },
  });
  assert.deepEqual(expectOk(await call('GET', '/v1/profiles/app-login/export?format=native', { auth })), expectOk(exported));
  const asPlaywright = expectOk(await call('GET', '/v1/profiles/app-login/export?format=playwright', { auth }));
  assert.deepEqual(asPlaywright, {
    cookies: [
      { name: 'sid', value: 'cap-SECRET-1', domain: 'app.example.test', path: '/', expires: -1, httpOnly: true, secure: true, sameSite: 'Strict' },
      { name: 'pref', value: 'compact', domain: 'app.example.test', path: '/', expires: 1_900_000_000, httpOnly: false, secure: false, sameSite: 'Lax' },
    ],
    origins: [{ origin: 'https://app.example.test', localStorage: [{ name: 'lang', value: 'en' }] }],
  });
  const emptyExport = expectOk(await call('GET', '/v1/profiles/empty.one_1/export?format=playwright', { auth }));
  assert.deepEqual(emptyExport, { cookies: [], origins: [] });

  // `saving`: a session holds the lock now (set and not lapsed).
  const { db } = await import('../../lib/db');
  await db.profile.update({ where: { id: empty.id }, data: { lockSessionId: 'sess-1', lockExpiresAt: new Date(Date.now() + 60_000) } });
  assert.equal(expectOk(await call('GET', '/v1/profiles/empty.one_1', { auth })).saving, true);
  await db.profile.update({ where: { id: empty.id }, data: { lockExpiresAt: new Date(Date.now() - 1_000) } });
  assert.equal(expectOk(await call('GET', '/v1/profiles/empty.one_1', { auth })).saving, false, 'a lapsed lock is not saving');

  assert.deepEqual(expectOk(await call('DELETE', '/v1/profiles/app-login', { auth })), { slug: 'app-login' });
  expectError(await call('GET', '/v1/profiles/app-login', { auth }), 404, 'not_found');
  expectError(await call('GET', '/v1/profiles/app-login/export', { auth }), 404, 'not_found');
  expectError(await call('DELETE', '/v1/profiles/app-login', { auth }), 404, 'not_found');
  assert.deepEqual(await versionRows(captured.id), [], 'its versions went with it');
  assert.equal(expectOk(await call('GET', '/v1/profiles', { auth })).total, 1);
});

test('import a Playwright storage state: the playwright export equals it, the native one keeps the session cookie, nothing is stored in plaintext', async () => {
  const user = await newUser('profimp');
  const auth = { token: user.token };
  const storageState = playwrightState();
  const imported = expectOk(await call('POST', '/v1/profiles/import-playwright', { auth, body: { slug: 'shop', name: 'Shop', storageState } }), 201);
  assert.deepEqual(Object.keys(imported).sort(), profileFields);
  assert.deepEqual([imported.version, imported.cookieCount, imported.capturedOrigins], [1, 2, ['http://localhost:8080', 'https://shop.example.test']]);

  assert.deepEqual(expectOk(await call('GET', '/v1/profiles/shop/export?format=playwright', { auth })), storageState);

  const native = expectOk(await call('GET', '/v1/profiles/shop/export', { auth }));
  const sid = native.cookies.find((c: any) => c.name === 'sid');
  assert.deepEqual(sid, {
    name: 'sid',
    value: 'session-SECRET-7f3a',
    domain: 'shop.example.test',
    path: '/',
    httpOnly: true,
    secure: true,
    sameSite: 'Lax',
    session: true,
  });
  assert.equal(native.cookies.find((c: any) => c.name === 'remember').expires, 1_893_456_000.5);
  assert.deepEqual(native.storage['http://localhost:8080'].indexedDB, storageState.origins[1]!.indexedDB);
  assert.deepEqual(native.storage['https://shop.example.test'], { localStorage: { cart: '{"items":[1,2]}', token: 'ls-SECRET-55d0' }, sessionStorage: {} });

  // At rest: sealed bytes only, bound to this profile.
  const [row] = await versionRows(imported.id);
  assert.equal(row!.source, 'import');
  const stored = Buffer.from(row!.stateEncrypted);
  for (const secret of ['session-SECRET-7f3a', 'persistent-SECRET-91c2', 'ls-SECRET-55d0', 'shop.example.test']) {
    assert.ok(!stored.includes(secret), `${secret} in the stored bytes`);
    assert.ok(!stored.toString('latin1').includes(secret));
  }
  const { openState } = await import('../../lib/profiles/store');
  assert.equal(openState(imported.id, stored).cookies[0]!.value, 'session-SECRET-7f3a');
  assert.throws(() => openState('another-profile-id', stored), 'a version does not open under another profile');

  // The API's 1 MB body limit does not apply to profile uploads: a 3 MB state is imported.
  const big = { cookies: [], origins: [{ origin: 'https://big.example.test', localStorage: [{ name: 'blob', value: 'x'.repeat(3 * MB) }] }] };
  const bigProfile = expectOk(await call('POST', '/v1/profiles/import-playwright', { auth, body: { slug: 'big', name: 'Big', storageState: big } }), 201);
  assert.ok(bigProfile.sizeBytes > 3 * MB && bigProfile.sizeBytes < 3 * MB + 1_000, `sizeBytes ${bigProfile.sizeBytes}`);
  assert.deepEqual(expectOk(await call('GET', '/v1/profiles/big/export?format=playwright', { auth })), big);
});

test('versions: newest first, at most 10 kept; restore saves a kept version again as the current one', async () => {
  const user = await newUser('profver');
  const auth = { token: user.token };
  const first = playwrightState();
  const profile = expectOk(
    await call('POST', '/v1/profiles/import-playwright', { auth, body: { slug: 'versioned', name: 'Versioned', storageState: first } }),
    201,
  );

  // Sessions saving to it, as the proxy does.
  const { saveVersion } = await import('../../lib/profiles/store');
  const { fromPlaywright } = await import('../../lib/profiles/state');
  const second = { cookies: [first.cookies[0]!], origins: [{ origin: 'https://shop.example.test', localStorage: [{ name: 'cart', value: '{}' }] }] };
  await saveVersion({ workspaceId: user.workspaceId, profileId: profile.id, state: fromPlaywright(second), source: 'session', sessionLogId: 'sess-abc' });

  const listed = expectOk(await call('GET', '/v1/profiles/versioned/versions', { auth }));
  const versions = listed.items;
  assert.equal(listed.total, versions.length);
  assert.deepEqual(Object.keys(versions[0]).sort(), [
    'capturedOrigins',
    'cookieCount',
    'createdAt',
    'current',
    'sessionLogId',
    'sizeBytes',
    'source',
    'version',
  ]);
  assert.deepEqual(
    versions.map((v: any) => [v.version, v.source, v.current, v.cookieCount, v.sessionLogId, v.capturedOrigins]),
    [
      [2, 'session', true, 1, 'sess-abc', ['https://shop.example.test']],
      [1, 'import', false, 2, null, ['http://localhost:8080', 'https://shop.example.test']],
    ],
  );
  const current = expectOk(await call('GET', '/v1/profiles/versioned', { auth }));
  assert.deepEqual([current.version, current.cookieCount, current.sizeBytes], [2, 1, versions[0].sizeBytes]);

  const restored = expectOk(await call('POST', '/v1/profiles/versioned/versions/1/restore', { auth }));
  assert.deepEqual(Object.keys(restored).sort(), profileFields);
  assert.deepEqual(
    [restored.version, restored.cookieCount, restored.sizeBytes, restored.capturedOrigins],
    [3, 2, versions[1].sizeBytes, versions[1].capturedOrigins],
  );
  assert.deepEqual(expectOk(await call('GET', '/v1/profiles/versioned/export?format=playwright', { auth })), first);
  const after = expectOk(await call('GET', '/v1/profiles/versioned/versions', { auth })).items;
  assert.deepEqual(
    after.map((v: any) => [v.version, v.source, v.current]),
    [
      [3, 'restore', true],
      [2, 'session', false],
      [1, 'import', false],
    ],
  );

  expectError(await call('POST', '/v1/profiles/versioned/versions/99/restore', { auth }), 404, 'not_found');
  expectError(await call('POST', '/v1/profiles/versioned/versions/0/restore', { auth }), 400, 'validation_error');
  expectError(await call('POST', '/v1/profiles/versioned/versions/two/restore', { auth }), 400, 'validation_error');
  expectError(await call('POST', '/v1/profiles/missing/versions/1/restore', { auth }), 404, 'not_found');
  expectError(await call('GET', '/v1/profiles/missing/versions', { auth }), 404, 'not_found');

  for (let i = 0; i < 9; i++) expectOk(await call('POST', '/v1/profiles/versioned/versions/2/restore', { auth }));
  const kept = expectOk(await call('GET', '/v1/profiles/versioned/versions', { auth })).items;
  assert.deepEqual(
    kept.map((v: any) => v.version),
    [12, 11, 10, 9, 8, 7, 6, 5, 4, 3],
    'the last 10 are kept',
  );
  expectError(await call('POST', '/v1/profiles/versioned/versions/1/restore', { auth }), 404, 'not_found');
  assert.equal(expectOk(await call('GET', '/v1/profiles/versioned', { auth })).version, 12);

  expectOk(await call('DELETE', '/v1/profiles/versioned', { auth }));
  assert.deepEqual(await versionRows(profile.id), []);
  expectError(await call('GET', '/v1/profiles/versioned/versions', { auth }), 404, 'not_found');
});

test('validation: slugs, captured, storageState, origins, format, names, unknown fields', async () => {
  const user = await newUser('profval');
  const auth = { token: user.token };
  const storageState = playwrightState();
  const create: Array<[unknown, string]> = [
    [{ name: 'x' }, 'slug'],
    [{ slug: '', name: 'x' }, 'slug'],
    [{ slug: 'has space', name: 'x' }, 'slug'],
    [{ slug: 'slash/y', name: 'x' }, 'slug'],
    [{ slug: 'é', name: 'x' }, 'slug'],
    [{ slug: 'a'.repeat(65), name: 'x' }, 'slug'],
    [{ slug: 'import-playwright', name: 'x' }, 'slug'],
    [{ slug: '..', name: 'x' }, 'slug'],
    [{ slug: 7, name: 'x' }, 'slug'],
    [{ slug: 'ok' }, 'name'],
    [{ slug: 'ok', name: '   ' }, 'name'],
    [{ slug: 'ok', name: 'x', captured: null }, 'captured'],
    [{ slug: 'ok', name: 'x', captured: 'state' }, 'captured'],
    [{ slug: 'ok', name: 'x', captured: { ...capturedState(), version: 2 } }, 'captured.version'],
    [{ slug: 'ok', name: 'x', captured: { ...capturedState(), cookies: 'sid=1' } }, 'captured.cookies'],
    [{ slug: 'ok', name: 'x', captured: { ...capturedState(), cookies: [{ name: 'a', value: 'b' }] } }, 'captured.cookies.0.domain'],
    [{ slug: 'ok', name: 'x', captured: { ...capturedState(), storage: { 'https://app.example.test/login': { localStorage: {} } } } }, 'captured.storage'],
    [{ slug: 'ok', name: 'x', captured: { ...capturedState(), storage: { 'not an origin': { localStorage: {} } } } }, 'captured.storage'],
    [{ slug: 'ok', name: 'x', captured: { ...capturedState(), storage: { 'https://app.example.test': { localStorage: { n: 1 } } } } }, 'captured.storage'],
    [{ slug: 'ok', name: 'x', storageState }, 'storageState'],
  ];
  for (const [body, field] of create) {
    const res = await call('POST', '/v1/profiles', { auth, body });
    expectError(res, 400, 'validation_error');
    assert.ok(
      res.body.error.details.some((d: any) => d.path === field || d.path.startsWith(`${field}.`)),
      `${JSON.stringify(body).slice(0, 100)} → ${JSON.stringify(res.body.error.details)}`,
    );
  }

  const imports: Array<[unknown, string]> = [
    [{ slug: 'ok', name: 'x' }, 'storageState'],
    [{ slug: 'ok', name: 'x', storageState: null }, 'storageState'],
    [{ slug: 'ok', name: 'x', storageState: { cookies: [] } }, 'storageState.origins'],
    [{ slug: 'ok', name: 'x', storageState: { cookies: {}, origins: [] } }, 'storageState.cookies'],
    [
      { slug: 'ok', name: 'x', storageState: { ...storageState, cookies: [{ ...storageState.cookies[0], sameSite: 'lax' }] } },
      'storageState.cookies.0.sameSite',
    ],
    [
      { slug: 'ok', name: 'x', storageState: { ...storageState, cookies: [{ ...storageState.cookies[0], expires: 'never' }] } },
      'storageState.cookies.0.expires',
    ],
    [
      { slug: 'ok', name: 'x', storageState: { cookies: [], origins: [{ origin: 'https://a.example.test/path', localStorage: [] }] } },
      'storageState.origins.0.origin',
    ],
    [{ slug: 'ok', name: 'x', storageState: { cookies: [], origins: [{ origin: 'file:///etc', localStorage: [] }] } }, 'storageState.origins.0.origin'],
    [
      { slug: 'ok', name: 'x', storageState: { cookies: [], origins: [{ origin: 'https://a.example.test', localStorage: [{ name: 'k' }] }] } },
      'storageState.origins.0.localStorage.0.value',
    ],
    [
      { slug: 'ok', name: 'x', storageState: { cookies: [], origins: [{ origin: 'https://a.example.test', localStorage: [], indexedDB: [{ name: 'db' }] }] } },
      'storageState.origins.0.indexedDB.0',
    ],
    [{ slug: 'import-playwright', name: 'x', storageState }, 'slug'],
    [{ slug: 'ok', name: 'x', storageState, captured: capturedState() }, 'captured'],
  ];
  for (const [body, field] of imports) {
    const res = await call('POST', '/v1/profiles/import-playwright', { auth, body });
    expectError(res, 400, 'validation_error');
    assert.ok(
      res.body.error.details.some((d: any) => d.path === field || d.path.startsWith(`${field}.`)),
      `${JSON.stringify(body).slice(0, 100)} → ${JSON.stringify(res.body.error.details)}`,
    );
  }
  assert.equal(expectOk(await call('GET', '/v1/profiles', { auth })).total, 0, 'nothing was created');

  expectOk(await call('POST', '/v1/profiles', { auth, body: { slug: 'Mixed.Case_slug-1', name: 'ok' } }), 201);
  const format = await call('GET', '/v1/profiles/Mixed.Case_slug-1/export?format=xyz', { auth });
  expectError(format, 400, 'validation_error');
  assert.equal(format.body.error.details[0].path, 'format');
  for (const body of [{ name: '' }, {}, { name: 'x', slug: 'renamed' }])
    expectError(await call('PATCH', '/v1/profiles/Mixed.Case_slug-1', { auth, body }), 400, 'validation_error');
  expectError(await call('GET', '/v1/profiles?pageSize=101', { auth }), 400, 'validation_error');
  expectError(await call('GET', '/v1/profiles?page=0', { auth }), 400, 'validation_error');
  // The literal route is not a profile: GET there is not served.
  expectError(await call('GET', '/v1/profiles/import-playwright', { auth }), 405, 'method_not_allowed');
});

test('roles: members read and import, only owners and admins create, rename, export, restore, delete; other workspaces are not_found; 401', async () => {
  const owner = await newUser('profr');
  const admin = await newUser('profra');
  const member = await newUser('profrm');
  const stranger = await newUser('profrs');
  await seedMember(owner.workspaceId, admin.userId, 'admin');
  await seedMember(owner.workspaceId, member.userId, 'member');
  const asOwner = as(owner);
  const asAdmin = as(admin, owner.workspaceId);
  const asMember = as(member, owner.workspaceId);
  expectOk(await call('POST', '/v1/profiles/import-playwright', { ...asOwner, body: { slug: 'team', name: 'Team', storageState: playwrightState() } }), 201);

  assert.equal(expectOk(await call('GET', '/v1/profiles', asMember)).total, 1);
  assert.equal(expectOk(await call('GET', '/v1/profiles/team', asMember)).slug, 'team');
  assert.equal(expectOk(await call('GET', '/v1/profiles/team/versions', asMember)).items.length, 1);
  const byMember = expectOk(
    await call('POST', '/v1/profiles/import-playwright', { ...asMember, body: { slug: 'member-made', name: 'Mine', storageState: playwrightState() } }),
    201,
  );
  assert.equal(byMember.workspaceId, owner.workspaceId);
  expectError(await call('POST', '/v1/profiles', { ...asMember, body: { slug: 'm', name: 'm' } }), 403, 'forbidden');
  expectError(await call('PATCH', '/v1/profiles/team', { ...asMember, body: { name: 'm' } }), 403, 'forbidden');
  expectError(await call('GET', '/v1/profiles/team/export', asMember), 403, 'forbidden');
  expectError(await call('GET', '/v1/profiles/team/export?format=playwright', asMember), 403, 'forbidden');
  expectError(await call('POST', '/v1/profiles/team/versions/1/restore', asMember), 403, 'forbidden');
  expectError(await call('DELETE', '/v1/profiles/team', asMember), 403, 'forbidden');
  expectError(await call('DELETE', '/v1/profiles/member-made', asMember), 403, 'forbidden');

  expectOk(await call('POST', '/v1/profiles', { ...asAdmin, body: { slug: 'admin-made', name: 'A' } }), 201);
  assert.equal(expectOk(await call('PATCH', '/v1/profiles/team', { ...asAdmin, body: { name: 'Team (admin)' } })).name, 'Team (admin)');
  assert.equal(expectOk(await call('GET', '/v1/profiles/team/export', asAdmin)).cookies.length, 2);
  assert.equal(expectOk(await call('POST', '/v1/profiles/team/versions/1/restore', asAdmin)).version, 2);
  expectOk(await call('DELETE', '/v1/profiles/admin-made', asAdmin));

  // Another workspace's profile is not found, exactly like a missing one.
  const asStranger = as(stranger);
  for (const [method, path, body] of [
    ['GET', '', undefined],
    ['PATCH', '', { name: 'x' }],
    ['DELETE', '', undefined],
    ['GET', '/export', undefined],
    ['GET', '/export?format=playwright', undefined],
    ['GET', '/versions', undefined],
    ['POST', '/versions/1/restore', undefined],
  ] as const) {
    expectError(await call(method, `/v1/profiles/team${path}`, { ...asStranger, body }), 404, 'not_found');
  }
  assert.equal(expectOk(await call('GET', '/v1/profiles', asStranger)).total, 0);
  // The same slug in another workspace is its own profile.
  expectOk(await call('POST', '/v1/profiles', { ...asStranger, body: { slug: 'team', name: 'Theirs' } }), 201);
  assert.equal(expectOk(await call('GET', '/v1/profiles/team', asOwner)).name, 'Team (admin)');
  expectError(await call('GET', '/v1/profiles', { auth: { token: stranger.token }, headers: { 'x-workspace-id': owner.workspaceId } }), 403, 'not_a_member');

  for (const [method, path] of [
    ['GET', '/v1/profiles'],
    ['POST', '/v1/profiles'],
    ['GET', '/v1/profiles/team'],
    ['GET', '/v1/profiles/team/export'],
    ['POST', '/v1/profiles/import-playwright'],
    ['DELETE', '/v1/profiles/team'],
    ['GET', '/v1/profiles/team/versions'],
    ['POST', '/v1/profiles/team/versions/1/restore'],
    ['PATCH', '/v1/profiles/team'],
  ] as const) {
    expectError(await call(method, path, { body: method === 'GET' ? undefined : {} }), 401, 'unauthenticated');
    expectError(await call(method, path, { auth: { token: 'acct_not-a-real-token' }, body: method === 'GET' ? undefined : {} }), 401, 'unauthenticated');
  }

  // Counted for bearers, not for the dashboard; the dashboard may export too.
  const counted = await call('GET', '/v1/profiles', asOwner);
  assert.ok(Number(counted.headers.get('x-ratelimit-limit')) > 0);
  const cookie = await signIn(owner.email);
  const viaCookie = await call('GET', '/v1/profiles', { auth: cookie });
  assert.equal(viaCookie.status, 200);
  assert.equal(viaCookie.headers.get('x-ratelimit-limit'), null);
  assert.equal(expectOk(await call('GET', '/v1/profiles/team/export?format=playwright', { auth: cookie })).cookies.length, 2);
});

test('deleting a profile unpins its providers and clears it as a router default', async () => {
  const user = await newUser('profdel');
  const auth = { token: user.token };
  const profile = expectOk(await call('POST', '/v1/profiles', { auth, body: { slug: 'pinned', name: 'Pinned' } }), 201);
  const { db } = await import('../../lib/db');
  const provider = await seedProvider(user.workspaceId, user.routerId, { slug: 'pinned-provider', name: 'P', profileId: profile.id });
  expectOk(await call('PATCH', `/v1/routers/${user.routerId}/agent-settings`, { auth, body: { defaultProfile: 'pinned' } }));
  expectOk(await call('DELETE', '/v1/profiles/pinned', { auth }));
  assert.equal((await db.provider.findUniqueOrThrow({ where: { id: provider.id } })).profileId, null);
  assert.equal(expectOk(await call('GET', `/v1/routers/${user.routerId}/agent-settings`, { auth })).defaultProfile, null);
});

test('duplicate slug: 409 conflict on create and import', async () => {
  const user = await newUser('profdup');
  const auth = { token: user.token };
  expectOk(await call('POST', '/v1/profiles', { auth, body: { slug: 'taken', name: 'First' } }), 201);
  expectError(await call('POST', '/v1/profiles', { auth, body: { slug: 'taken', name: 'Second' } }), 409, 'conflict');
  expectError(
    await call('POST', '/v1/profiles/import-playwright', { auth, body: { slug: 'taken', name: 'Third', storageState: playwrightState() } }),
    409,
    'conflict',
  );
  expectOk(await call('POST', '/v1/profiles', { auth, body: { slug: 'Taken', name: 'Case differs' } }), 201);
  const list = expectOk(await call('GET', '/v1/profiles', { auth }));
  assert.deepEqual(list.items.map((p: any) => p.name).sort(), ['Case differs', 'First']);
});

/** Announces a body of `length` bytes and sends only its first bytes: the answer must not wait for the rest. */
function announceBody(user: TestUser, path: string, length: number): Promise<{ status: number; json: any }> {
  const url = new URL(WEB);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path,
        agent: false,
        headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json', 'content-length': String(length) },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          clearTimeout(timer);
          req.destroy();
          resolve({ status: res.statusCode!, json: JSON.parse(text) });
        });
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error('no answer within 30 s'));
    }, 30_000);
    req.on('error', () => {});
    req.write('{"slug":"');
  });
}

test('size limits: a profile over 10 MB is 413 payload_too_large however it is sent, never a 500', async () => {
  const user = await newUser('profbig');
  const auth = { token: user.token };
  const huge = 'x'.repeat(10 * MB + 10);
  const tooBigImport = await call('POST', '/v1/profiles/import-playwright', {
    auth,
    body: {
      slug: 'huge',
      name: 'Huge',
      storageState: { cookies: [], origins: [{ origin: 'https://a.example.test', localStorage: [{ name: 'k', value: huge }] }] },
    },
  });
  expectError(tooBigImport, 413, 'payload_too_large');
  assert.match(tooBigImport.body.error.message, /10 MB/);
  const tooBigCreate = await call('POST', '/v1/profiles', {
    auth,
    body: { slug: 'huge', name: 'Huge', captured: { version: 1, cookies: [], storage: { 'https://a.example.test': { localStorage: { k: huge } } } } },
  });
  expectError(tooBigCreate, 413, 'payload_too_large');
  // A body past the endpoints' own limit is refused before it is read.
  for (const path of ['/v1/profiles', '/v1/profiles/import-playwright']) {
    const announced = await announceBody(user, path, 40 * MB);
    assert.equal(announced.status, 413);
    assert.equal(announced.json.error.code, 'payload_too_large');
  }
  // sessionStorage is never kept, so a large one does not count against the limit.
  const withSessionStorage = expectOk(
    await call('POST', '/v1/profiles', {
      auth,
      body: {
        slug: 'ss',
        name: 'ss',
        captured: { version: 1, cookies: [], storage: { 'https://a.example.test': { localStorage: { k: 'v' }, sessionStorage: { big: huge } } } },
      },
    }),
    201,
  );
  assert.ok(withSessionStorage.sizeBytes < 1_000);
  assert.equal(expectOk(await call('GET', '/v1/profiles', { auth })).total, 1, 'nothing else was created');
});

test('workspace storage cap: 413 profile_storage_cap_exceeded when saving would pass 500 MB', async () => {
  const user = await newUser('profcap');
  const auth = { token: user.token };
  const { db } = await import('../../lib/db');
  const a = expectOk(await call('POST', '/v1/profiles', { auth, body: { slug: 'a', name: 'A' } }), 201);
  const b = expectOk(await call('POST', '/v1/profiles', { auth, body: { slug: 'b', name: 'B' } }), 201);
  await db.$executeRaw`UPDATE "Profile" SET "sizeBytes" = ${250 * MB} WHERE "id" = ${a.id}`;
  await db.$executeRaw`UPDATE "Profile" SET "sizeBytes" = ${250 * MB - 400} WHERE "id" = ${b.id}`;

  const small = playwrightState();
  const refused = await call('POST', '/v1/profiles/import-playwright', { auth, body: { slug: 'small', name: 'Small', storageState: small } });
  expectError(refused, 413, 'profile_storage_cap_exceeded');
  expectError(
    await call('POST', '/v1/profiles', { auth, body: { slug: 'small', name: 'Small', captured: capturedState() } }),
    413,
    'profile_storage_cap_exceeded',
  );
  expectError(await call('GET', '/v1/profiles/small', { auth }), 404, 'not_found');
  // 400 bytes are left: an empty profile stores nothing, an empty state (144 bytes) fits.
  expectOk(await call('POST', '/v1/profiles', { auth, body: { slug: 'empty', name: 'Empty' } }), 201);
  expectOk(
    await call('POST', '/v1/profiles/import-playwright', { auth, body: { slug: 'tiny', name: 'Tiny', storageState: { cookies: [], origins: [] } } }),
    201,
  );
  // Deleting makes room.
  expectOk(await call('DELETE', '/v1/profiles/a', { auth }));
  expectOk(await call('POST', '/v1/profiles/import-playwright', { auth, body: { slug: 'small', name: 'Small', storageState: small } }), 201);
});

test('500 profiles per workspace: the 501st is 402 fair_use_limit_reached', async () => {
  const user = await newUser('profmax');
  const auth = { token: user.token };
  await seedProfiles(user.workspaceId, 499);
  assert.equal(expectOk(await call('GET', '/v1/profiles?pageSize=1', { auth })).total, 499);
  expectOk(await call('POST', '/v1/profiles', { auth, body: { slug: 'five-hundred', name: '500th' } }), 201);
  expectError(await call('POST', '/v1/profiles', { auth, body: { slug: 'one-more', name: '501st' } }), 402, 'fair_use_limit_reached');
  expectError(
    await call('POST', '/v1/profiles/import-playwright', { auth, body: { slug: 'one-more', name: '501st', storageState: playwrightState() } }),
    402,
    'fair_use_limit_reached',
  );
  assert.equal(expectOk(await call('GET', '/v1/profiles?pageSize=1', { auth })).total, 500);
  expectOk(await call('DELETE', '/v1/profiles/bulk-7', { auth }));
  expectOk(await call('POST', '/v1/profiles', { auth, body: { slug: 'one-more', name: '500th again' } }), 201);
});
