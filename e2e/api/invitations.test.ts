// Invitations: the e-mail arrives at a real SMTP server and its link is followed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, expectError, expectOk, linkIn, newUser, signIn, uniqueEmail, waitForMail } from '../support/api';
import { seedMember, seedMembers } from '../support/seed';
import { freePort } from '../../scripts/lib/ports';
import { setEnv } from '../../lib/config/testing';

function tokenFrom(link: string) {
  return decodeURIComponent(new URL(link).pathname.split('/').at(-1)!);
}

async function invite(session: { cookie: string }, email: string, role = 'member') {
  const before = Date.now();
  const created = expectOk(await call('POST', '/v1/invitations', { auth: session, body: { email, role } }), 201);
  const mail = await waitForMail(email, /invited you/, before);
  return { created, token: tokenFrom(linkIn(mail.text, '/invite/')) };
}

test('invite → e-mail → lookup → accept joins the workspace with the role', async () => {
  const owner = await newUser('invo');
  const invitee = await newUser('invi');
  const session = await signIn(owner.email);
  const { created, token } = await invite(session, invitee.email.toUpperCase(), 'admin');
  assert.deepEqual(Object.keys(created).sort(), ['createdAt', 'delivery', 'email', 'expiresAt', 'id', 'invitedByName', 'role']);
  assert.equal(created.delivery, 'smtp', 'the stack has a mail server');
  assert.equal(created.email, invitee.email);
  assert.equal(created.role, 'admin');
  const days = (Date.parse(created.expiresAt) - Date.parse(created.createdAt)) / 86_400_000;
  assert.ok(Math.abs(days - 7) < 0.001, `valid 7 days, got ${days}`);

  const lookup = expectOk(await call('GET', `/v1/invitations/${encodeURIComponent(token)}/lookup`));
  assert.equal(lookup.role, 'admin');
  assert.equal(lookup.inviterName, 'invo tester');
  assert.equal(lookup.expired, false);

  const list = expectOk(await call('GET', '/v1/invitations', { auth: { token: owner.token } }));
  assert.deepEqual(
    list.items.map((i: { id: string }) => i.id),
    [created.id],
  );

  const accepted = expectOk(await call('POST', `/v1/invitations/${encodeURIComponent(token)}/accept`, { auth: await signIn(invitee.email) }));
  assert.equal(accepted.workspace.id, owner.workspaceId);
  assert.equal(accepted.workspace.role, 'admin');
  const members = expectOk(await call('GET', '/v1/workspaces/current/members', { auth: { token: owner.token } }));
  assert.ok(members.items.some((m: { userId: string; role: string }) => m.userId === invitee.userId && m.role === 'admin'));
  assert.equal(expectOk(await call('GET', '/v1/invitations', { auth: { token: owner.token } })).total, 0, 'no longer pending');
  expectError(await call('GET', `/v1/invitations/${encodeURIComponent(token)}/lookup`), 404, 'not_found');
});

test('accept and decline only for the invited address', async () => {
  const owner = await newUser('wrongo');
  const invitee = await newUser('wrongi');
  const intruder = await newUser('wrongx');
  const { token } = await invite(await signIn(owner.email), invitee.email);
  const res = await call('POST', `/v1/invitations/${encodeURIComponent(token)}/accept`, { auth: { token: intruder.token } });
  expectError(res, 403, 'forbidden');
  expectError(await call('POST', `/v1/invitations/${encodeURIComponent(token)}/decline`, { auth: { token: intruder.token } }), 403, 'forbidden');
  expectError(await call('POST', `/v1/invitations/${encodeURIComponent(token)}/accept`), 401, 'unauthenticated');
  const declined = expectOk(await call('POST', `/v1/invitations/${encodeURIComponent(token)}/decline`, { auth: { token: invitee.token } }));
  assert.equal(declined.declined, true);
  expectError(await call('POST', `/v1/invitations/${encodeURIComponent(token)}/accept`, { auth: { token: invitee.token } }), 404, 'not_found');
});

test('resend renews the link and expiry; the old link stops working', async () => {
  const owner = await newUser('reso');
  const email = uniqueEmail('resi');
  const session = await signIn(owner.email);
  const { created, token: oldToken } = await invite(session, email);
  const { db } = await import('../../lib/db');
  await db.invitation.update({ where: { id: created.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
  const expired = expectOk(await call('GET', `/v1/invitations/${encodeURIComponent(oldToken)}/lookup`));
  assert.equal(expired.expired, true);

  const before = Date.now();
  const resent = expectOk(await call('POST', `/v1/invitations/${created.id}/resend`, { auth: { token: owner.token } }));
  assert.ok(Date.parse(resent.expiresAt) > Date.now() + 6.9 * 86_400_000);
  assert.equal(resent.delivery, 'smtp');
  const newToken = tokenFrom(linkIn((await waitForMail(email, /invited you/, before)).text, '/invite/'));
  assert.notEqual(newToken, oldToken);
  expectError(await call('GET', `/v1/invitations/${encodeURIComponent(oldToken)}/lookup`), 404, 'not_found');
  expectOk(await call('GET', `/v1/invitations/${encodeURIComponent(newToken)}/lookup`));
});

test('an expired invitation cannot be accepted', async () => {
  const owner = await newUser('expo');
  const invitee = await newUser('expi');
  const { created, token } = await invite(await signIn(owner.email), invitee.email);
  const { db } = await import('../../lib/db');
  await db.invitation.update({ where: { id: created.id }, data: { expiresAt: new Date(Date.now() - 1) } });
  expectError(await call('POST', `/v1/invitations/${encodeURIComponent(token)}/accept`, { auth: { token: invitee.token } }), 410, 'invitation_expired');
});

test('cancel removes a pending invitation; roles and workspaces are enforced', async () => {
  const owner = await newUser('cano');
  const member = await newUser('canm');
  const other = await newUser('canx');
  await seedMember(owner.workspaceId, member.userId, 'member');
  const { created } = await invite(await signIn(owner.email), uniqueEmail('cani'));
  const memberAuth = { token: member.token };
  const headers = { 'x-workspace-id': owner.workspaceId };
  expectOk(await call('GET', '/v1/invitations', { auth: memberAuth, headers }));
  expectError(await call('DELETE', `/v1/invitations/${created.id}`, { auth: memberAuth, headers }), 403, 'forbidden');
  expectError(await call('POST', `/v1/invitations/${created.id}/resend`, { auth: memberAuth, headers }), 403, 'forbidden');
  expectError(
    await call('POST', '/v1/invitations', { auth: await signIn(member.email), headers, body: { email: uniqueEmail(), role: 'member' } }),
    403,
    'forbidden',
  );
  expectError(await call('DELETE', `/v1/invitations/${created.id}`, { auth: { token: other.token } }), 404, 'not_found');
  expectError(await call('POST', `/v1/invitations/${created.id}/resend`, { auth: { token: other.token } }), 404, 'not_found');
  assert.deepEqual(expectOk(await call('DELETE', `/v1/invitations/${created.id}`, { auth: { token: owner.token } })), { id: created.id, cancelled: true });
  expectError(await call('DELETE', `/v1/invitations/${created.id}`, { auth: { token: owner.token } }), 404, 'not_found');
});

test('validation, duplicates and existing members', async () => {
  const owner = await newUser('valo');
  const member = await newUser('valm');
  await seedMember(owner.workspaceId, member.userId, 'member');
  const session = await signIn(owner.email);
  const bad = await call('POST', '/v1/invitations', { auth: session, body: { email: 'not-an-email', role: 'owner' } });
  expectError(bad, 400, 'validation_error');
  assert.match(bad.body.error.message, /email/);
  assert.match(bad.body.error.message, /role/);
  expectError(await call('POST', '/v1/invitations', { auth: session, body: { email: member.email, role: 'member' } }), 409, 'conflict');
  const email = uniqueEmail('dup');
  await invite(session, email);
  expectError(await call('POST', '/v1/invitations', { auth: session, body: { email, role: 'admin' } }), 409, 'conflict');
});

test('1,000 members → 402 fair_use_limit_reached', async () => {
  const owner = await newUser('capo');
  await seedMembers(owner.workspaceId, 999);
  const res = await call('POST', '/v1/invitations', { auth: await signIn(owner.email), body: { email: uniqueEmail(), role: 'member' } });
  expectError(res, 402, 'fair_use_limit_reached');
});

test('an invitation can be re-sent at most 5 times an hour', async () => {
  const owner = await newUser('resendcap');
  const { created } = await invite(await signIn(owner.email), uniqueEmail('rc'));
  for (let i = 0; i < 5; i++) expectOk(await call('POST', `/v1/invitations/${created.id}/resend`, { auth: { token: owner.token } }));
  expectError(await call('POST', `/v1/invitations/${created.id}/resend`, { auth: { token: owner.token } }), 429, 'rate_limited');
});

// The stack has a mail server, so its web process always answers `smtp`. The other two answers are
// the mailer's own branches: run here, in this process, against the stack's database, with
// SMTP_URL unset and then pointing at a port nothing listens on (not a second stack).
test('without a mail server, or when it refuses, the invitation waits in the Outbox and `delivery` says so', async () => {
  const owner = await newUser('outo');
  const email = uniqueEmail('outi');
  const { db } = await import('../../lib/db');
  const { resolveWorkspace } = await import('../../lib/api/resolve');
  const { createInvitation, resendInvitation } = await import('../../lib/invitations/manage-invitations');
  const user = await db.user.findUniqueOrThrow({ where: { id: owner.userId } });
  const workspace = (await resolveWorkspace(user, 'bearer', owner.workspaceId))!;
  const restores = [setEnv({ SMTP_URL: undefined })];
  try {
    const created = await createInvitation(workspace, user, { email, role: 'member' });
    assert.equal(created.delivery, 'outbox');
    // What the invitee and the inviter find in their Outbox is a working link (the inviter may pass it on).
    const kept = await db.mailOutbox.findFirstOrThrow({ where: { to: email } });
    assert.match(kept.subject, /invited you/);
    expectOk(await call('GET', `/v1/invitations/${encodeURIComponent(tokenFrom(linkIn(kept.text, '/invite/')))}/lookup`));

    restores.push(setEnv({ SMTP_URL: `smtp://127.0.0.1:${await freePort()}` }));
    const resent = await resendInvitation(workspace, created.id, user);
    assert.equal(resent.delivery, 'smtp_failed');
    assert.equal(await db.mailOutbox.count({ where: { to: email } }), 2, 'the refused mail is kept in the Outbox too');
  } finally {
    for (const restore of restores.reverse()) restore();
  }
});
