import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  changePasswordFormSchema,
  changePasswordSchema,
  passwordResetCompleteSchema,
  passwordResetRequestSchema,
  resetPasswordFormSchema,
  updateAccountSchema,
} from './schemas';

const issues = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  result.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];

test('a reset request takes the address as sign-up does: trimmed and lower-cased', () => {
  assert.deepEqual(passwordResetRequestSchema.parse({ email: '  Someone@Example.TEST ' }), { email: 'someone@example.test' });
  assert.deepEqual(issues(passwordResetRequestSchema.safeParse({ email: 'nope' })), ['email: enter a valid e-mail address']);
});

test('new passwords follow the sign-up rules wherever they are set', () => {
  assert.deepEqual(issues(passwordResetCompleteSchema.safeParse({ token: 'pwr_0123456789', password: 'short' })), ['password: use at least 10 characters']);
  assert.deepEqual(issues(changePasswordSchema.safeParse({ currentPassword: 'x', newPassword: 'y'.repeat(201) })), ['newPassword: use at most 200 characters']);
  assert.deepEqual(issues(changePasswordSchema.safeParse({ currentPassword: '', newPassword: 'long enough password' })), [
    'currentPassword: enter your current password',
  ]);
});

test('the forms ask for the new password twice; a difference is on the second field', () => {
  assert.ok(resetPasswordFormSchema.safeParse({ password: 'long enough password', confirm: 'long enough password' }).success);
  assert.deepEqual(issues(resetPasswordFormSchema.safeParse({ password: 'long enough password', confirm: 'long enough passwort' })), [
    'confirm: the two passwords differ',
  ]);
  const change = changePasswordFormSchema.safeParse({ currentPassword: 'old one', newPassword: 'long enough password', confirm: '' });
  assert.deepEqual(issues(change), ['confirm: the two passwords differ']);
});

test('the account takes a trimmed name and nothing else', () => {
  assert.deepEqual(updateAccountSchema.parse({ name: '  Ada  ' }), { name: 'Ada' });
  assert.deepEqual(issues(updateAccountSchema.safeParse({ name: ' ' })), ['name: enter your name']);
  assert.equal(updateAccountSchema.safeParse({ name: 'Ada', email: 'a@b.test' }).success, false);
});
