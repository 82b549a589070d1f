// Who is the instance operator (docs/security.md, "The operator"): only whom the installer makes
// it. An ADMIN_EMAILS address (operator@test.local on the test stack) counts once verified; the
// claim link (issued as `npm start` issues it, e2e/api/start-stop.test.ts prints and opens one)
// works once, for a signed-in account; `npm run operator` grants and revokes from a shell beside
// the running stack; every operator action is in the audit log, which only the operator reads.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { call, expectError, expectOk, linkIn, newUser, PASSWORD, signIn, uniqueEmail, waitForMail, type TestUser } from '../support/api';
import { installEnv } from '../support/install-env';
import { issueOperatorClaim, setOperatorRight } from '../../lib/admin/operator-rights';
import { grantCredits } from '../../lib/billing/grants';
import { db } from '../../lib/db';
import { sendVerificationMail } from '../../lib/users/verify-email';
import { programRunner } from '../../scripts/lib/processes';
import { setEnv } from '../../lib/config/testing';

const OPERATOR = 'operator@test.local';
let member: TestUser;

/** Removes the ADMIN_EMAILS account with its workspaces, as the other files of the operator lane do. */
async function removeConfiguredOperator() {
  const existing = await db.user.findUnique({ where: { email: OPERATOR }, select: { id: true } });
  if (!existing) return;
  await db.workspace.deleteMany({ where: { memberships: { some: { userId: existing.id, role: 'owner' } } } });
  await db.user.delete({ where: { id: existing.id } });
}

/** Whether the account holding `auth` is the operator, as /v1/me and an operator endpoint say. */
async function operatorRights(auth: { token: string } | { cookie: string }) {
  const me = expectOk(await call('GET', '/v1/me', { auth }));
  const find = await call('GET', '/v1/admin/workspaces?pageSize=1', { auth });
  assert.equal(find.status, me.isAdmin ? 200 : 403, JSON.stringify(find.body));
  return me.isAdmin as boolean;
}

before(async () => {
  await removeConfiguredOperator();
  await db.mailOutbox.deleteMany({ where: { to: OPERATOR } });
  member = await newUser('op-member');
});

after(async () => {
  await removeConfiguredOperator();
  await db.user.updateMany({ where: { operatorSince: { not: null } }, data: { operatorSince: null } });
});

test('an ADMIN_EMAILS address that signed up is no operator until proven by a mailed link; one read from the outbox does not count', async () => {
  const signedUp = await call('POST', '/api/sign-up', {
    body: { name: 'Early Bird', email: OPERATOR, password: PASSWORD },
    headers: { origin: new URL(process.env.TEST_WEB_URL!).origin },
  });
  assert.equal(signedUp.status, 201, JSON.stringify(signedUp.body));
  const session = await signIn(OPERATOR);
  assert.equal(await operatorRights(session), false, 'unverified: not the operator');
  assert.equal(await issueOperatorClaim().then(Boolean), true, 'the installation still has no operator');

  // Without a mail server the link waits in the outbox, where the account (whoever signed up with
  // the address) reads it: it verifies the account but proves nothing.
  const account = await db.user.findUniqueOrThrow({ where: { email: OPERATOR } });
  const restore = setEnv({ SMTP_URL: undefined });
  await sendVerificationMail(account).finally(restore);
  const kept = await db.mailOutbox.findFirstOrThrow({ where: { to: OPERATOR }, orderBy: { createdAt: 'desc' } });
  expectOk(await call('POST', '/api/verify-email', { body: { token: new URL(linkIn(kept.text, '/verify-email?token=')).searchParams.get('token') } }));
  assert.equal(expectOk(await call('GET', '/v1/me', { auth: session })).user.emailVerified, true);
  assert.equal(await operatorRights(session), false, 'verified from the outbox: still not the operator');

  const mail = await waitForMail(OPERATOR, /^Confirm your e-mail address$/);
  const token = new URL(linkIn(mail.text, '/verify-email?token=')).searchParams.get('token');
  expectOk(await call('POST', '/api/verify-email', { body: { token } }));
  assert.equal(await operatorRights(session), true, 'verified: the operator');
  assert.equal(await issueOperatorClaim(), null, 'no claim link once there is an operator');
  await removeConfiguredOperator();
});

test('the claim link: the newest only, once, for a signed-in account', async () => {
  const older = (await issueOperatorClaim())!;
  const newer = (await issueOperatorClaim())!;
  assert.match(newer, /^opc_/);
  const [first, second] = await Promise.all([newUser('claim-first'), newUser('claim-second')]);
  const [firstSession, secondSession] = await Promise.all([signIn(first.email), signIn(second.email)]);

  expectError(await call('POST', '/api/operator/claim', { auth: firstSession, body: { token: older } }), 400, 'validation_error');
  expectError(await call('POST', '/api/operator/claim', { auth: firstSession, body: {} }), 400, 'validation_error');
  expectError(await call('POST', '/api/operator/claim', { auth: { token: first.token }, body: { token: newer } }), 403, 'cookie_required');
  expectError(await call('POST', '/api/operator/claim', { body: { token: newer } }), 401, 'unauthenticated');
  assert.equal(await operatorRights(firstSession), false);

  assert.deepEqual(expectOk(await call('POST', '/api/operator/claim', { auth: firstSession, body: { token: newer } })), { operator: true, email: first.email });
  assert.equal(await operatorRights(firstSession), true);
  const again = await call('POST', '/api/operator/claim', { auth: secondSession, body: { token: newer } });
  expectError(again, 400, 'validation_error');
  assert.match(JSON.stringify(again.body), /this claim link is not valid/);
  assert.equal(await operatorRights(secondSession), false, 'a spent link makes nobody else the operator');
  assert.equal(await issueOperatorClaim(), null);

  // Among the newest rows (other files, such as the seed's credit grants, write to the same log
  // meanwhile): the claim, by and of the account that claimed.
  const { items } = expectOk(await call('GET', '/v1/admin/actions?pageSize=50', { auth: { token: first.token } }));
  const rows = (items as { action: string; actor: { email: string } | null; target: string }[]).map((a) => [a.action, a.actor?.email, a.target]);
  assert.deepEqual(
    rows.filter(([action, , target]) => action === 'operator_claimed' && target === first.email),
    [['operator_claimed', first.email, first.email]],
  );
  await setOperatorRight(first.email, false);
  assert.equal(await operatorRights({ token: first.token }), false, 'revoked from the shell: refused from the next request');
});

test('npm run operator grants and takes the right beside the running stack; --list; usage errors exit 2, an unknown address 1', async () => {
  const run = (...args: string[]) => promisify(execFile)(process.execPath, [programRunner, 'scripts/operator.ts', ...args], { env: installEnv() });
  const user = await newUser('shell-op');
  assert.equal((await run('--email', user.email.toUpperCase())).stdout.trim(), `${user.email} is the operator of this installation`);
  assert.equal(await operatorRights({ token: user.token }), true);
  assert.match((await run('--list')).stdout, new RegExp(`^${user.email.replace(/[.]/g, '\\.')}  operator since `, 'm'));
  assert.equal((await run('--email', user.email, '--revoke')).stdout.trim(), `${user.email} is no longer an operator of this installation`);
  assert.equal(await operatorRights({ token: user.token }), false);
  assert.equal((await run('--email', user.email, '--revoke')).stdout.trim(), `${user.email} was not an operator of this installation (nothing changed)`);

  await assert.rejects(
    run('--email', uniqueEmail('nobody')),
    (error: { code: number; stderr: string }) => error.code === 1 && /no account has the e-mail/.test(error.stderr),
  );
  await assert.rejects(run(), (error: { code: number; stderr: string }) => error.code === 2 && /usage: npm run operator/.test(error.stderr));
  await assert.rejects(run('--list', '--revoke'), (error: { code: number }) => error.code === 2);
  const actions = await db.operatorAction.findMany({ where: { targetLabel: user.email }, orderBy: { createdAt: 'asc' } });
  assert.deepEqual(
    actions.map((a) => [a.action, a.actorUserId]),
    [
      ['operator_granted', null],
      ['operator_revoked', null],
    ],
  );
});

test('grants, suspensions and enterprise marks are in the audit log, newest first; only the operator reads it', async () => {
  const operator = await newUser('audit-op');
  await setOperatorRight(operator.email, true);
  const auth = { token: operator.token };
  const target = await newUser('audit-target');
  const workspace = (path = '') => `/v1/admin/workspaces/${target.workspaceId}${path}`;
  expectOk(await call('PATCH', workspace(), { auth, body: { suspended: true } }));
  expectOk(await call('PATCH', workspace(), { auth, body: { suspended: true } })); // no change: no entry
  expectOk(await call('PATCH', workspace(), { auth, body: { suspended: false, enterprise: true } }));
  expectOk(await call('POST', workspace('/credits'), { auth, body: { amountCents: 250, note: 'support case 12' } }), 201);
  await grantCredits(target.workspaceId, 100, 'from a script', null);

  const { items, total } = expectOk(await call('GET', `/v1/admin/actions?workspaceId=${target.workspaceId}`, { auth }));
  assert.equal(total, 5);
  const name = (await db.workspace.findUniqueOrThrow({ where: { id: target.workspaceId } })).name;
  assert.deepEqual(
    items.map((a: { action: string; actor: { email: string } | null; target: string }) => [a.action, a.actor?.email ?? null, a.target]),
    [
      ['credits_granted', null, name],
      ['credits_granted', operator.email, name],
      ['workspace_enterprise', operator.email, name],
      ['workspace_unsuspended', operator.email, name],
      ['workspace_suspended', operator.email, name],
    ],
  );
  assert.deepEqual({ amountCents: items[1].detail.amountCents, note: items[1].detail.note }, { amountCents: 250, note: 'support case 12' });
  assert.match(items[1].detail.cause, /^grant:/);

  expectError(await call('GET', '/v1/admin/actions', { auth: { token: member.token } }), 403, 'forbidden');
  expectError(await call('GET', '/v1/admin/actions'), 401, 'unauthenticated');
  expectError(await call('GET', '/v1/admin/actions', { auth: { token: 'acct_not-a-real-token' } }), 401, 'unauthenticated');
  expectError(await call('GET', '/v1/admin/actions?pageSize=0', { auth }), 400, 'validation_error');
  await setOperatorRight(operator.email, false);
});
