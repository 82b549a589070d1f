// Password reset by e-mail: the request that tells nothing, the one-hour single-use link, and what
// a reset ends (every dashboard session, every account token).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomLoopback } from '../support/connect';
import { call, expectError, expectOk, linkIn, newUser, PASSWORD, signIn, uniqueEmail, waitForMail, type Res } from '../support/api';

const NEW_PASSWORD = 'a brand new passphrase';
const requestReset = (email: string, localAddress?: string) => call('POST', '/api/password-reset', { body: { email }, localAddress });
const complete = (token: string, password = NEW_PASSWORD) => call('POST', '/api/password-reset/complete', { body: { token, password } });

/** Asks for a reset link for `email` and returns the token of the mail it brings. */
async function resetToken(email: string): Promise<string> {
  const after = Date.now();
  assert.equal((await requestReset(email)).status, 202);
  const mail = await waitForMail(email, /^Reset your password$/, after);
  return new URL(linkIn(mail.text, '/reset-password?token=')).searchParams.get('token')!;
}

/** The one `token` issue of a validation error, with its message. */
function tokenRefusal(res: Res): string {
  expectError(res, 400, 'validation_error');
  assert.deepEqual(
    res.body.error.details.map((d: { path: string }) => d.path),
    ['token'],
  );
  return res.body.error.details[0].message;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

test('a request answers 202 with the same body for an existing and an unknown address, in the same time; only the account gets a mail', async () => {
  const user = await newUser('reset-same');
  const unknown = uniqueEmail('reset-nobody');
  const after = Date.now();
  const forUnknown = await requestReset(unknown);
  const forUser = await requestReset(user.email.toUpperCase());
  assert.equal(forUnknown.status, 202);
  assert.equal(forUser.status, 202);
  assert.deepEqual(forUser.body, forUnknown.body);
  assert.deepEqual(forUser.body, { ok: true, data: { accepted: true } });

  const mail = await waitForMail(user.email, /^Reset your password$/, after);
  assert.match(mail.text, /valid for one hour/);
  assert.match(mail.html, /Choose a new password/, 'the product look: the layout with its button');
  const link = linkIn(mail.text, '/reset-password?token=');
  assert.match(new URL(link).searchParams.get('token')!, /^pwr_/);
  const caught = (await (await fetch(`${process.env.TEST_MAIL_URL}/messages?to=${encodeURIComponent(unknown)}`)).json()) as unknown[];
  assert.deepEqual(caught, [], 'nothing was sent to an address without an account');

  // The lookup and the mail happen after the answer: an address with an account is not slower.
  const others = await Promise.all([newUser('reset-time1'), newUser('reset-time2'), newUser('reset-time3')]); // 3 each: under the 5 an hour per address
  const timed = async (email: string) => {
    const started = performance.now();
    assert.equal((await requestReset(email)).status, 202);
    return performance.now() - started;
  };
  // Pairs, one of each right after the other, and the median of their differences: a stall of the
  // machine (other test files run beside this one) lands on one pair, not on one kind of address.
  const differences: number[] = [];
  for (let i = 0; i < 9; i++) {
    const existing = await timed(others[i % 3]!.email);
    differences.push(existing - (await timed(uniqueEmail('reset-time-nobody'))));
  }
  assert.ok(
    Math.abs(median(differences)) < 150,
    `median difference ${median(differences).toFixed(1)} ms (account minus none): ${differences.map((d) => d.toFixed(0)).join(', ')}`,
  );
});

test('the link sets a new password once: old sessions and account tokens stop, the old password fails, the e-mail counts as verified', async () => {
  // Signed up, not verified: the link reaching the mailbox verifies it.
  const email = uniqueEmail('reset-flow');
  expectOk(await call('POST', '/api/sign-up', { body: { name: 'Rita Reset', email, password: PASSWORD } }), 201);
  const before = await signIn(email);
  const accountToken = expectOk(await call('POST', '/v1/access-tokens', { auth: before, body: { label: 'ci' } }), 201).plaintextToken as string;
  expectOk(await call('GET', '/v1/me', { auth: { token: accountToken } }));

  const token = await resetToken(email);
  // A weak password is refused before the link is spent.
  const weak = await complete(token, 'short');
  expectError(weak, 400, 'validation_error');
  assert.deepEqual(
    weak.body.error.details.map((d: { path: string }) => d.path),
    ['password'],
  );
  const changedAfter = Date.now();
  assert.deepEqual(expectOk(await complete(token)), { reset: true });

  expectError(await call('GET', '/v1/me', { auth: before }), 401, 'unauthenticated');
  expectError(await call('GET', '/v1/me', { auth: { token: accountToken } }), 401, 'unauthenticated');
  await assert.rejects(signIn(email, PASSWORD), /sign-in failed/);
  const after = await signIn(email, NEW_PASSWORD);
  const me = expectOk(await call('GET', '/v1/me', { auth: after }));
  assert.equal(me.user.emailVerified, true);
  const tokens = expectOk(await call('GET', '/v1/access-tokens', { auth: after }));
  assert.ok(
    tokens.items.every((t: { revokedAt: string | null }) => t.revokedAt !== null),
    'every account token was revoked',
  );

  assert.match(tokenRefusal(await complete(token, 'yet another long password')), /already used/);
  await assert.rejects(signIn(email, 'yet another long password'), /sign-in failed/);
  const notice = await waitForMail(email, /^Your password was changed$/, changedAfter);
  assert.match(notice.text, /reset with a link/);
  assert.match(linkIn(notice.text, '/forgot-password'), /\/forgot-password$/);
});

test('an expired link is refused, and a newer request replaces the older link', async () => {
  const user = await newUser('reset-expiry');
  const { db } = await import('../../lib/db');
  const { hashSecret } = await import('../../lib/crypto/secrets');

  const first = await resetToken(user.email);
  const row = await db.emailToken.findUniqueOrThrow({ where: { tokenHash: hashSecret(first) } });
  assert.equal(row.purpose, 'reset-password');
  const ttl = row.expiresAt.getTime() - row.createdAt.getTime();
  assert.ok(Math.abs(ttl - 3_600_000) < 5_000, `valid one hour, got ${ttl} ms`);
  await db.emailToken.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
  assert.match(tokenRefusal(await complete(first)), /expired/);

  const second = await resetToken(user.email);
  const third = await resetToken(user.email);
  assert.match(tokenRefusal(await complete(second)), /newer reset link/);
  expectOk(await complete(third));
  await signIn(user.email, NEW_PASSWORD);
  // A verification token is not a reset token.
  assert.match(tokenRefusal(await complete(`ver_${'x'.repeat(43)}`)), /not valid/);
});

test('invalid input answers validation errors in the envelope, never a 500', async () => {
  for (const body of [{}, { email: 'not-an-address' }, { email: 42 }, { email: `${'a'.repeat(250)}@example.test` }]) {
    const res = await call('POST', '/api/password-reset', { body });
    expectError(res, 400, 'validation_error');
    assert.deepEqual(
      res.body.error.details.map((d: { path: string }) => d.path),
      ['email'],
    );
  }
  expectError(await call('POST', '/api/password-reset', { rawBody: '{nope', headers: { 'content-type': 'application/json' } }), 400, 'validation_error');
  expectError(
    await call('POST', '/api/password-reset', { rawBody: 'email=a@b.c', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
    415,
    'unsupported_media_type',
  );

  const missing = await call('POST', '/api/password-reset/complete', { body: {} });
  expectError(missing, 400, 'validation_error');
  assert.deepEqual(missing.body.error.details.map((d: { path: string }) => d.path).sort(), ['password', 'token']);
  assert.match(tokenRefusal(await complete('pwr_this-token-was-never-issued')), /not valid/);
  const nul = await complete('pwr_\u0000abcdefghijkl');
  expectError(nul, 400, 'validation_error');
  const long = await complete('pwr_x', 'x'.repeat(201));
  expectError(long, 400, 'validation_error');
  assert.deepEqual(long.body.error.details.map((d: { path: string }) => d.path).sort(), ['password', 'token']);
});

test('requests are limited per e-mail address (the same for an account and for none) and per client address', async () => {
  const user = await newUser('reset-limit');
  for (const email of [user.email, uniqueEmail('reset-limit-nobody')]) {
    for (let i = 0; i < 5; i++) assert.equal((await requestReset(email)).status, 202, `request ${i + 1} for ${email}`);
    const limited = await requestReset(email);
    expectError(limited, 429, 'rate_limited');
    const retry = Number(limited.headers.get('retry-after'));
    assert.ok(retry >= 1 && retry <= 3600, `Retry-After ${retry}`);
  }

  // Per client address: the bucket of an address of this test's own (other files send from
  // 127.0.0.1 meanwhile), filled up for the test and emptied after it.
  const { db } = await import('../../lib/db');
  const from = randomLoopback();
  assert.equal((await requestReset(uniqueEmail('reset-ip'), from)).status, 202);
  const bucket = await db.rateLimitBucket.findFirstOrThrow({
    where: { AND: [{ key: { startsWith: 'password-reset-ip:' } }, { key: { endsWith: `:${from}` } }] },
    orderBy: { windowStart: 'desc' },
  });
  try {
    await db.rateLimitBucket.update({ where: { key_windowStart: { key: bucket.key, windowStart: bucket.windowStart } }, data: { count: 1_000_000_000 } });
    const limited = await requestReset(uniqueEmail('reset-ip-over'), from);
    expectError(limited, 429, 'rate_limited');
    assert.match(limited.body.error.message, /from this network/);
    // Another address is not limited by it.
    assert.equal((await requestReset(uniqueEmail('reset-ip-elsewhere'), randomLoopback())).status, 202);
  } finally {
    await db.rateLimitBucket.deleteMany({ where: { key: bucket.key } });
  }
  assert.equal((await requestReset(uniqueEmail('reset-ip-again'), from)).status, 202);
});

test('an account scheduled for deletion can reset its password, then sign in and restore itself', async () => {
  const user = await newUser('reset-deleted');
  expectOk(await call('DELETE', '/v1/account', { auth: { token: user.token } }));
  expectOk(await complete(await resetToken(user.email)));
  const session = await signIn(user.email, NEW_PASSWORD);
  assert.ok(expectOk(await call('GET', '/v1/me', { auth: session })).deletionScheduledAt, 'still scheduled: a reset does not restore');
  assert.deepEqual(expectOk(await call('POST', '/v1/account/undelete', { auth: session })), { restored: true });
});
