// The Outbox (GET /api/outbox) over real HTTP: each kept mail is shown, with its text, to its
// recipient, but an invitation only to whoever sent it (an account with the invited address proves
// nothing, so it must not read the link that lets it in); nobody else reads it, and the operator
// (ADMIN_EMAILS=operator@test.local on the test stack) sees that it was written, without the text.
// The links it holds are worth nothing once used or expired.
// The stack's web process has a mail server, so its mail never reaches the Outbox: the mail is
// written here, in this process, through the product's own functions with SMTP_URL unset, into
// the stack's database. The operator account is removed again at the end when this file made it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { call, expectError, expectOk, linkIn, newUser, PASSWORD, signIn, type Res, type TestUser } from '../support/api';
import { db } from '../../lib/db';
import { resolveWorkspace } from '../../lib/api/resolve';
import { createInvitation } from '../../lib/invitations/manage-invitations';
import { sendMail } from '../../lib/mail/mailer';
import type { OutboxItem } from '../../lib/mail/outbox';
import { sendPasswordResetMail } from '../../lib/users/reset-password';
import { sendVerificationMail } from '../../lib/users/verify-email';
import { setEnv } from '../../lib/config/testing';

setEnv({ SMTP_URL: undefined });

const OPERATOR = 'operator@test.local';
let createdOperatorId: string | null = null;

before(async () => {
  const existing = await db.user.findUnique({ where: { email: OPERATOR } });
  if (!existing) {
    const { seedUser } = await import('../../lib/users/seed-user');
    const seeded = await seedUser({ email: OPERATOR, password: PASSWORD, name: 'Test Operator' });
    createdOperatorId = seeded.userId;
  }
});

after(async () => {
  if (createdOperatorId) {
    await db.workspace.deleteMany({ where: { memberships: { some: { userId: createdOperatorId, role: 'owner' } } } });
    await db.user.delete({ where: { id: createdOperatorId } });
  }
});

async function outboxOf(session: { cookie: string }): Promise<OutboxItem[]> {
  const data = expectOk<{ items: OutboxItem[]; total: number }>(await call('GET', '/api/outbox', { auth: session }));
  assert.ok(data.total >= data.items.length);
  return data.items;
}

/** The newest mail of `items` to `to` whose subject matches. */
function mailIn(items: OutboxItem[], to: string, subject: RegExp): OutboxItem {
  const found = items.find((m) => m.to === to.toLowerCase() && subject.test(m.subject));
  assert.ok(found, `a mail to ${to} matching ${subject} in ${JSON.stringify(items.map((m) => [m.to, m.subject]))}`);
  return found;
}

const tokenOf = (text: string, path: string, param?: string) => {
  const url = new URL(linkIn(text, path));
  return param ? url.searchParams.get(param)! : decodeURIComponent(url.pathname.split('/').at(-1)!);
};

/** Invites `email` to `owner`'s workspace as the product does (the mail kept, SMTP_URL being unset). */
async function inviteInProcess(owner: TestUser, email: string) {
  const user = await db.user.findUniqueOrThrow({ where: { id: owner.userId } });
  const workspace = (await resolveWorkspace(user, 'bearer', owner.workspaceId))!;
  const created = await createInvitation(workspace, user, { email, role: 'member' });
  assert.equal(created.delivery, 'outbox');
  return created;
}

async function verificationMailTo(user: TestUser) {
  await sendVerificationMail({ id: user.userId, email: user.email, name: 'outbox tester' });
}

test('each mail is shown to its recipient with its text, whatever the case of its address; nobody else sees it', async () => {
  const [alice, bob] = await Promise.all([newUser('outbox-alice'), newUser('outbox-bob')]);
  await verificationMailTo(alice);
  assert.equal(await sendMail({ to: alice.email.toUpperCase(), subject: 'Upper-cased address', text: 'Hello, see http://localhost/x' }), 'outbox');

  const mine = await outboxOf(await signIn(alice.email));
  const verification = mailIn(mine, alice.email, /^Confirm your e-mail address$/);
  assert.deepEqual(Object.keys(verification).sort(), ['createdAt', 'id', 'subject', 'text', 'to']);
  assert.match(verification.text!, /\/verify-email\?token=ver_/);
  assert.equal(mailIn(mine, alice.email, /^Upper-cased address$/).text, 'Hello, see http://localhost/x');
  // The link read there is the working one.
  expectOk(await call('POST', '/api/verify-email', { body: { token: tokenOf(verification.text!, '/verify-email?token=', 'token') } }));

  const others = await outboxOf(await signIn(bob.email));
  assert.deepEqual(
    others.filter((m) => m.to === alice.email),
    [],
    "bob sees none of alice's mail",
  );
  assert.ok(
    others.every((m) => m.to === bob.email),
    'bob sees only mail to bob',
  );
});

test('an invitation is shown with its link to the inviter only: not to an account with the invited address, nor anyone else', async () => {
  const [owner, invitee, third] = await Promise.all([newUser('outbox-inviter'), newUser('outbox-invitee'), newUser('outbox-third')]);
  await inviteInProcess(owner, invitee.email);

  const inviterView = mailIn(await outboxOf(await signIn(owner.email)), invitee.email, /invited you to/);
  const token = tokenOf(inviterView.text!, '/invite/');
  assert.match(token, /^inv_/);
  assert.equal((await db.mailOutbox.findUniqueOrThrow({ where: { id: inviterView.id } })).senderUserId, owner.userId);

  const inviteeSession = await signIn(invitee.email);
  for (const session of [inviteeSession, await signIn(third.email)]) {
    const view = await outboxOf(session);
    assert.equal(
      view.find((m) => m.id === inviterView.id),
      undefined,
      'only the inviter sees it',
    );
    assert.ok(!JSON.stringify(view).includes(token));
  }

  // The link the inviter passes on works.
  const accepted = expectOk(await call('POST', `/v1/invitations/${encodeURIComponent(token)}/accept`, { auth: inviteeSession }));
  assert.equal(accepted.workspace.id, owner.workspaceId);
});

test("the operator sees every mail listed, others' without their text; their own with it", async () => {
  const [user, owner, invitee] = await Promise.all([newUser('outbox-someone'), newUser('outbox-op-inviter'), newUser('outbox-op-invitee')]);
  await verificationMailTo(user);
  await inviteInProcess(owner, invitee.email);
  await sendMail({ to: OPERATOR, subject: 'For the operator', text: 'Operator only: http://localhost/op' });

  const listed = await outboxOf(await signIn(OPERATOR));
  const hidden = [mailIn(listed, user.email, /^Confirm your e-mail address$/), mailIn(listed, invitee.email, /invited you to/)];
  for (const mail of hidden) {
    assert.equal(mail.text, null, `no text of ${mail.subject}`);
    assert.deepEqual(Object.keys(mail).sort(), ['createdAt', 'id', 'subject', 'text', 'to']);
    assert.ok(!Number.isNaN(Date.parse(mail.createdAt)));
  }
  const body = JSON.stringify(listed);
  for (const mail of hidden) {
    const { text } = await db.mailOutbox.findUniqueOrThrow({ where: { id: mail.id } });
    const link = /https?:\/\/\S+/.exec(text)![0];
    assert.ok(
      !body.includes(link) && !body.includes(new URL(link).search || new URL(link).pathname),
      `the link of ${mail.subject} does not reach the operator`,
    );
  }
  assert.equal(mailIn(listed, OPERATOR, /^For the operator$/).text, 'Operator only: http://localhost/op');
});

test('without a session, or with a forged cookie, the Outbox is 401', async () => {
  expectError(await call('GET', '/api/outbox'), 401, 'unauthenticated');
  expectError(await call('GET', '/api/outbox', { auth: { cookie: 'next-auth.session-token=forged' } }), 401, 'unauthenticated');
  expectError(await call('GET', '/api/outbox', { auth: { token: 'acct_not-a-token' } }), 401, 'unauthenticated');
});

/** The `token` field's refusal (400 validation_error), with its message. */
function tokenRefusal(res: Res): string {
  expectError(res, 400, 'validation_error');
  assert.deepEqual(
    res.body.error.details.map((d: { path: string }) => d.path),
    ['token'],
  );
  return res.body.error.details[0].message;
}

test('a verification link from the Outbox works once, and not once expired', async () => {
  const user = await newUser('outbox-verify');
  const session = await signIn(user.email);
  await verificationMailTo(user);
  const token = tokenOf(mailIn(await outboxOf(session), user.email, /^Confirm your e-mail address$/).text!, '/verify-email?token=', 'token');
  expectOk(await call('POST', '/api/verify-email', { body: { token } }));
  assert.match(tokenRefusal(await call('POST', '/api/verify-email', { body: { token } })), /invalid or has expired/);

  await verificationMailTo(user);
  const fresh = tokenOf(mailIn(await outboxOf(session), user.email, /^Confirm your e-mail address$/).text!, '/verify-email?token=', 'token');
  assert.notEqual(fresh, token);
  await db.emailToken.updateMany({ where: { userId: user.userId, purpose: 'verify-email', usedAt: null }, data: { expiresAt: new Date(Date.now() - 1000) } });
  assert.match(tokenRefusal(await call('POST', '/api/verify-email', { body: { token: fresh } })), /invalid or has expired/);
});

test('a password-reset link from the Outbox works once, and not once expired', async () => {
  const user = await newUser('outbox-reset');
  const resetToken = async (password: string) => {
    await sendPasswordResetMail(user.email);
    return tokenOf(mailIn(await outboxOf(await signIn(user.email, password)), user.email, /^Reset your password$/).text!, '/reset-password?token=', 'token');
  };
  const complete = (token: string, password: string) => call('POST', '/api/password-reset/complete', { body: { token, password } });

  const first = await resetToken(PASSWORD);
  expectOk(await complete(first, 'a first new passphrase'));
  assert.match(tokenRefusal(await complete(first, 'a second new passphrase')), /already used/);

  const second = await resetToken('a first new passphrase');
  assert.notEqual(second, first);
  await db.emailToken.updateMany({ where: { userId: user.userId, purpose: 'reset-password', usedAt: null }, data: { expiresAt: new Date(Date.now() - 1000) } });
  assert.match(tokenRefusal(await complete(second, 'a second new passphrase')), /expired/);
  await signIn(user.email, 'a first new passphrase');
});

test('an invitation link from the Outbox works once, and not once expired', async () => {
  const [owner, invitee, late] = await Promise.all([newUser('outbox-inv-owner'), newUser('outbox-inv-once'), newUser('outbox-inv-late')]);
  const accept = (token: string, session: { cookie: string }) => call('POST', `/v1/invitations/${encodeURIComponent(token)}/accept`, { auth: session });

  await inviteInProcess(owner, invitee.email);
  const ownerSession = await signIn(owner.email);
  const session = await signIn(invitee.email);
  const token = tokenOf(mailIn(await outboxOf(ownerSession), invitee.email, /invited you to/).text!, '/invite/');
  expectOk(await accept(token, session));
  expectError(await accept(token, session), 404, 'not_found');

  const expiring = await inviteInProcess(owner, late.email);
  const lateSession = await signIn(late.email);
  const lateToken = tokenOf(mailIn(await outboxOf(ownerSession), late.email, /invited you to/).text!, '/invite/');
  await db.invitation.update({ where: { id: expiring.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
  expectError(await accept(lateToken, lateSession), 410, 'invitation_expired');
  assert.equal(await db.membership.count({ where: { workspaceId: owner.workspaceId, userId: late.userId } }), 0);
});
