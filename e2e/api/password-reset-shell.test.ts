// A forgotten password on an install without a mail server: `npm run reset-password` prints the
// one-time link the mail would have brought. It sets the password once, the newest link only,
// signs the account's other sessions out, proves no mailbox, and is in the operator's audit log.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { call, expectError, expectOk, newUser, PASSWORD, signIn, uniqueEmail } from '../support/api';
import { installEnv } from '../support/install-env';
import { db } from '../../lib/db';
import { programRunner } from '../../scripts/lib/processes';

const NEW_PASSWORD = 'set from the shell link';
const run = (...args: string[]) => promisify(execFile)(process.execPath, [programRunner, 'scripts/reset-password.ts', ...args], { env: installEnv() });
const complete = (token: string, password = NEW_PASSWORD) => call('POST', '/api/password-reset/complete', { body: { token, password } });
const tokenOf = (stdout: string) => new URL(/http\S+\/reset-password\?token=\S+/.exec(stdout)![0]).searchParams.get('token')!;

test('npm run reset-password prints a link that sets the password once; only the newest works; the address stays unverified; the audit log has it', async () => {
  const user = await newUser('shell-reset');
  await db.user.update({ where: { id: user.userId }, data: { emailVerifiedAt: null, emailProvenAt: null } });
  const before = await signIn(user.email);

  const first = await run('--email', `  ${user.email.toUpperCase()} `);
  assert.match(first.stdout, new RegExp(`set a new password for ${user.email.replace(/[.]/g, '\\.')} \\(it works once\\)`));
  const second = await run('--email', user.email);
  const [older, newer] = [tokenOf(first.stdout), tokenOf(second.stdout)];
  assert.notEqual(older, newer);

  expectError(await complete(older), 400, 'validation_error');
  expectOk(await complete(newer));
  expectError(await complete(newer, 'and once more'), 400, 'validation_error');
  await assert.rejects(signIn(user.email, PASSWORD), 'the old password no longer signs in');
  await signIn(user.email, NEW_PASSWORD);
  expectError(await call('GET', '/v1/me', { auth: before }), 401, 'unauthenticated');

  const row = await db.user.findUniqueOrThrow({ where: { id: user.userId } });
  assert.equal(row.emailVerifiedAt, null, 'a link from the shell went through no mailbox');
  const actions = await db.operatorAction.findMany({ where: { targetLabel: user.email } });
  assert.deepEqual(
    actions.map((a) => [a.action, a.actorUserId]),
    [
      ['password_reset_link', null],
      ['password_reset_link', null],
    ],
  );
});

test('npm run reset-password: an unknown address is one line and exit 1; no --email is usage and exit 2', async () => {
  const nobody = uniqueEmail('nobody');
  await assert.rejects(
    run('--email', nobody),
    (error: { code: number; stderr: string }) => error.code === 1 && error.stderr.trim() === `reset-password: no account has the address ${nobody}`,
  );
  await assert.rejects(run(), (error: { code: number; stderr: string }) => error.code === 2 && /usage: npm run reset-password/.test(error.stderr));
  await assert.rejects(run('--mail', 'x'), (error: { code: number }) => error.code === 2);
});
