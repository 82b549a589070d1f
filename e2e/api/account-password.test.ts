// The account's own settings: the name (PATCH /v1/account) and the password
// (POST /v1/account/password, dashboard session only, which signs out every other session).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, expectError, expectOk, linkIn, newUser, PASSWORD, signIn, waitForMail } from '../support/api';

const NEW_PASSWORD = 'the new account passphrase';

test('PATCH /v1/account changes the name, with a bearer or the dashboard cookie', async () => {
  const user = await newUser('rename');
  const renamed = expectOk(await call('PATCH', '/v1/account', { auth: { token: user.token }, body: { name: '  Renée Renamed  ' } }));
  assert.deepEqual(renamed.user, { id: user.userId, email: user.email, name: 'Renée Renamed', emailVerified: true, image: null });
  assert.equal(expectOk(await call('GET', '/v1/me', { auth: { token: user.token } })).user.name, 'Renée Renamed');

  const session = await signIn(user.email);
  expectOk(await call('PATCH', '/v1/account', { auth: session, body: { name: 'Cookie Name' } }));
  const members = expectOk(await call('GET', '/v1/workspaces/current/members', { auth: session }));
  assert.equal(members.items[0].name, 'Cookie Name', 'the members list shows the new name');
});

test('PATCH /v1/account: validation, authentication and same-origin errors', async () => {
  const user = await newUser('rename-errors');
  const auth = { token: user.token };
  for (const [body, path] of [
    [{ name: '   ' }, 'name'],
    [{ name: 'x'.repeat(101) }, 'name'],
    [{ name: 7 }, 'name'],
    [{}, 'name'],
    [{ name: 'Ok', email: 'new@example.test' }, 'email'],
  ] as const) {
    const res = await call('PATCH', '/v1/account', { auth, body });
    expectError(res, 400, 'validation_error');
    assert.deepEqual(
      res.body.error.details.map((d: { path: string }) => d.path),
      [path],
      JSON.stringify(body),
    );
  }
  expectError(await call('PATCH', '/v1/account', { body: { name: 'Anonymous' } }), 401, 'unauthenticated');
  expectError(await call('PATCH', '/v1/account', { auth: { token: 'acct_not-a-real-token' }, body: { name: 'Wrong' } }), 401, 'unauthenticated');
  const session = await signIn(user.email);
  expectError(await call('PATCH', '/v1/account', { auth: { ...session, origin: 'https://evil.example' }, body: { name: 'Cross site' } }), 403, 'forbidden');
  assert.equal(expectOk(await call('GET', '/v1/me', { auth })).user.name, 'rename-errors tester', 'nothing changed');
});

test('changing the password signs out every other session, keeps this one with a renewed cookie, and keeps account tokens', async () => {
  const user = await newUser('passwd');
  const here = await signIn(user.email);
  const elsewhere = await signIn(user.email);
  const after = Date.now();
  const res = await call('POST', '/v1/account/password', { auth: here, body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD } });
  assert.deepEqual(expectOk(res), { changed: true });
  const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('next-auth.session-token='));
  assert.ok(setCookie, 'the answer renews the session cookie');
  assert.match(setCookie, /; HttpOnly/);
  assert.match(setCookie, /; SameSite=Lax/);
  assert.match(setCookie, /; Path=\//);
  const renewed = { cookie: setCookie.split(';')[0]! };

  assert.equal(expectOk(await call('GET', '/v1/me', { auth: renewed })).user.id, user.userId);
  expectError(await call('GET', '/v1/me', { auth: elsewhere }), 401, 'unauthenticated');
  expectError(await call('GET', '/v1/me', { auth: here }), 401, 'unauthenticated');
  expectOk(await call('GET', '/v1/me', { auth: { token: user.token } }), 200);
  await assert.rejects(signIn(user.email, PASSWORD), /sign-in failed/);
  await signIn(user.email, NEW_PASSWORD);
  const notice = await waitForMail(user.email, /^Your password was changed$/, after);
  assert.match(notice.text, /changed from the Account page/);
});

test('POST /v1/account/password: the current password, the new password rules, a dashboard session', async () => {
  const user = await newUser('passwd-errors');
  const session = await signIn(user.email);
  const wrong = await call('POST', '/v1/account/password', { auth: session, body: { currentPassword: 'not my password', newPassword: NEW_PASSWORD } });
  expectError(wrong, 400, 'validation_error');
  assert.deepEqual(wrong.body.error.details, [{ path: 'currentPassword', message: 'the current password is not correct' }]);
  const weak = await call('POST', '/v1/account/password', { auth: session, body: { currentPassword: PASSWORD, newPassword: 'short' } });
  expectError(weak, 400, 'validation_error');
  assert.deepEqual(
    weak.body.error.details.map((d: { path: string }) => d.path),
    ['newPassword'],
  );
  const missing = await call('POST', '/v1/account/password', { auth: session, body: {} });
  assert.deepEqual(missing.body.error.details.map((d: { path: string }) => d.path).sort(), ['currentPassword', 'newPassword']);

  expectError(
    await call('POST', '/v1/account/password', { auth: { token: user.token }, body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD } }),
    403,
    'cookie_required',
  );
  expectError(await call('POST', '/v1/account/password', { body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD } }), 401, 'unauthenticated');
  expectError(
    await call('POST', '/v1/account/password', {
      auth: { ...session, origin: 'https://evil.example' },
      body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
    }),
    403,
    'forbidden',
  );
  expectError(await call('GET', '/v1/account/password', { auth: session }), 405, 'method_not_allowed');
  // Nothing changed.
  expectOk(await call('GET', '/v1/me', { auth: session }));
  await signIn(user.email, PASSWORD);
});

test('wrong current passwords count as failed sign-ins of the address', async () => {
  const user = await newUser('passwd-guess');
  const session = await signIn(user.email);
  const { SIGN_IN_FAILURES_PER_EMAIL } = await import('../../lib/auth/sign-in-throttle');
  for (let i = 0; i < SIGN_IN_FAILURES_PER_EMAIL; i++) {
    expectError(
      await call('POST', '/v1/account/password', { auth: session, body: { currentPassword: `guess number ${i}`, newPassword: NEW_PASSWORD } }),
      400,
      'validation_error',
    );
  }
  const limited = await call('POST', '/v1/account/password', { auth: session, body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD } });
  expectError(limited, 429, 'rate_limited');
  assert.ok(Number(limited.headers.get('retry-after')) >= 1);
  await assert.rejects(signIn(user.email), /sign-in failed/, 'sign-in is throttled for the address too');
});

test('a password change voids a reset link asked for before it', async () => {
  const user = await newUser('passwd-reset');
  const after = Date.now();
  assert.equal((await call('POST', '/api/password-reset', { body: { email: user.email } })).status, 202);
  const mail = await waitForMail(user.email, /^Reset your password$/, after);
  const token = new URL(linkIn(mail.text, '/reset-password?token=')).searchParams.get('token')!;
  const session = await signIn(user.email);
  expectOk(await call('POST', '/v1/account/password', { auth: session, body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD } }));
  const res = await call('POST', '/api/password-reset/complete', { body: { token, password: 'someone else chose this' } });
  expectError(res, 400, 'validation_error');
  assert.equal(res.body.error.details[0].path, 'token');
  await signIn(user.email, NEW_PASSWORD);
});
