// Sign-up, e-mail verification, account deletion with its 30-day undo window, and the purge.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addMember, call, expectError, expectOk, linkIn, newUser, PASSWORD, signIn, uniqueEmail, waitForMail } from '../support/api';

test('sign-up creates a workspace, a default router and a key; the e-mailed link verifies', async () => {
  const email = uniqueEmail('signup');
  const before = Date.now();
  const created = expectOk(await call('POST', '/api/sign-up', { body: { name: 'New Person', email, password: PASSWORD } }), 201);
  assert.equal(created.user.emailVerified, false);
  const session = await signIn(email);
  const me = expectOk(await call('GET', '/v1/me', { auth: session }));
  assert.equal(me.workspaces.length, 1);
  assert.equal(me.workspaces[0].role, 'owner');
  assert.deepEqual(
    me.routers.map((r: { slug: string }) => r.slug),
    ['default'],
  );
  const { db } = await import('../../lib/db');
  assert.equal(await db.routerKey.count({ where: { routerId: me.routers[0].id, revokedAt: null } }), 1);

  const link = linkIn((await waitForMail(email, /Confirm your e-mail/, before)).text, '/verify-email?token=');
  const token = new URL(link).searchParams.get('token')!;
  expectError(await call('POST', '/api/verify-email', { body: { token: `${token}x` } }), 400, 'validation_error');
  expectOk(await call('POST', '/api/verify-email', { body: { token } }));
  assert.equal(expectOk(await call('GET', '/v1/me', { auth: session })).user.emailVerified, true);
  expectError(await call('POST', '/api/verify-email', { body: { token } }), 400, 'validation_error');
});

test('sign-up validation and duplicate e-mail', async () => {
  const res = await call('POST', '/api/sign-up', { body: { name: '', email: 'nope', password: 'short' } });
  expectError(res, 400, 'validation_error');
  for (const field of ['name', 'email', 'password']) assert.match(res.body.error.message, new RegExp(field));
  const user = await newUser('dupe');
  expectError(await call('POST', '/api/sign-up', { body: { name: 'x', email: user.email, password: PASSWORD } }), 409, 'conflict');
});

test('account deletion is refused while an owned workspace has other members', async () => {
  const owner = await newUser('delblock');
  const member = await newUser('delblockm');
  await addMember(owner.workspaceId, member.userId, 'member');
  const res = await call('DELETE', '/v1/account', { auth: { token: owner.token } });
  expectError(res, 409, 'workspaces_have_other_members');
  expectOk(await call('GET', '/v1/me', { auth: { token: owner.token } }));
});

test('deletion signs out everywhere; signing in again can restore within 30 days', async () => {
  const user = await newUser('delme');
  const session = await signIn(user.email);
  const marked = expectOk(await call('DELETE', '/v1/account', { auth: { token: user.token } }));
  assert.ok(marked.purgeAfter);
  expectError(await call('GET', '/v1/me', { auth: session }), 401, 'unauthenticated');
  expectError(await call('GET', '/v1/me', { auth: { token: user.token } }), 401, 'unauthenticated');

  const again = await signIn(user.email);
  const me = expectOk(await call('GET', '/v1/me', { auth: again }));
  assert.ok(me.deletionScheduledAt);
  expectError(await call('GET', '/v1/workspaces', { auth: again }), 401, 'unauthenticated');
  assert.deepEqual(expectOk(await call('POST', '/v1/account/undelete', { auth: again })), { restored: true });
  expectOk(await call('GET', '/v1/workspaces', { auth: again }));
  expectOk(await call('GET', '/v1/me', { auth: { token: user.token } }));
});

test('the purge removes the account and its workspaces after 30 days, not before', async () => {
  const user = await newUser('purge');
  expectOk(await call('DELETE', '/v1/account', { auth: { token: user.token } }));
  const { purgeDeletedAccounts } = await import('../../lib/users/delete-account');
  const { db } = await import('../../lib/db');
  // The deletion is dated back rather than the purge's clock moved forward: a purge at a later
  // "now" would also remove the pending deletions of the files running beside this one.
  const requestedAt = async (daysAgo: number) =>
    db.user.update({ where: { id: user.userId }, data: { deletionRequestedAt: new Date(Date.now() - daysAgo * 86_400_000) } });
  await requestedAt(29);
  await purgeDeletedAccounts();
  assert.ok(await db.user.findUnique({ where: { id: user.userId } }));
  await requestedAt(30 + 1 / 1440);
  await purgeDeletedAccounts();
  assert.equal(await db.user.findUnique({ where: { id: user.userId } }), null);
  assert.equal(await db.workspace.findUnique({ where: { id: user.workspaceId } }), null);
});

test('undelete on an active account changes nothing; unauthenticated is 401', async () => {
  const user = await newUser('undel');
  assert.deepEqual(expectOk(await call('POST', '/v1/account/undelete', { auth: await signIn(user.email) })), { restored: false, alreadyActive: true });
  expectError(await call('POST', '/v1/account/undelete'), 401, 'unauthenticated');
  expectError(await call('DELETE', '/v1/account'), 401, 'unauthenticated');
});

test('verification resends are capped at 5 an hour', async () => {
  const email = uniqueEmail('resend');
  expectOk(await call('POST', '/api/sign-up', { body: { name: 'Re Send', email, password: PASSWORD } }), 201);
  const session = await signIn(email);
  for (let i = 0; i < 5; i++) assert.deepEqual(expectOk(await call('POST', '/api/verify-email/resend', { auth: session })), { sent: true });
  const limited = await call('POST', '/api/verify-email/resend', { auth: session });
  expectError(limited, 429, 'rate_limited');
  assert.ok(Number(limited.headers.get('retry-after')) > 0);
});
