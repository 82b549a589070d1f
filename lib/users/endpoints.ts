// The caller and their account: who they are, their details and password, deleting and restoring
// the account (docs/api.md: Users, workspaces, invitations; Access tokens and the account).
// Each entry declares one endpoint: its route file serves it through endpoint() (lib/api/endpoint.ts)
// and the OpenAPI document describes it (lib/openapi/document.ts).
import { z } from 'zod';
import { byId, operation } from '../openapi/operation';
import { accountDeletion, me, user } from '../openapi/resources/accounts';
import { changePasswordSchema, passwordResetCompleteSchema, passwordResetRequestSchema, signUpSchema, updateAccountSchema, verifyEmailSchema } from './schemas';

const USERS = 'Users and workspaces';
const TOKENS = 'Access tokens and the account';

export const userEndpoints = byId([
  operation({
    method: 'get',
    path: '/v1/me',
    operationId: 'getMe',
    tag: USERS,
    auth: 'account',
    scope: 'workspace-if-any',
    whileDeletionPending: true,
    summary: 'The caller, their workspaces and the active workspace and router',
    description: 'Also answers while the account is scheduled for deletion (`deletionScheduledAt` says until when it can be restored).',
    responses: { 200: { description: 'The caller', schema: me } },
  }),
  operation({
    method: 'patch',
    path: '/v1/account',
    operationId: 'updateAccount',
    tag: TOKENS,
    auth: 'account',
    scope: 'none',
    summary: "Change the account's name",
    description: 'The e-mail address cannot be changed.',
    body: updateAccountSchema,
    bodyExample: { name: 'Ada King' },
    responses: { 200: { description: 'The account as `GET /v1/me` shows it', schema: z.object({ user }) } },
  }),
  operation({
    method: 'post',
    path: '/v1/account/password',
    operationId: 'changePassword',
    tag: TOKENS,
    auth: 'cookie',
    scope: 'none',
    summary: 'Change the password',
    description:
      'Needs the current password (a wrong one counts towards the sign-in throttle of the address). Signs out every other session; this one gets a renewed cookie. Account tokens stay valid. A forgotten password is reset by e-mail instead (`POST /api/password-reset`).',
    body: changePasswordSchema,
    bodyExample: { currentPassword: 'the old passphrase', newPassword: 'a new long passphrase' },
    errors: ['rate_limited'],
    responses: { 200: { description: 'Changed', schema: z.object({ changed: z.literal(true) }) } },
  }),
  operation({
    method: 'delete',
    path: '/v1/account',
    operationId: 'deleteAccount',
    tag: TOKENS,
    auth: 'account',
    scope: 'none',
    summary: 'Schedule the account for deletion',
    description: 'Marks the account and the workspaces it owns alone for deletion and signs out everywhere; it can be undone for 30 days.',
    errors: ['workspaces_have_other_members'],
    responses: { 200: { description: 'Scheduled', schema: accountDeletion } },
  }),
  operation({
    method: 'post',
    path: '/v1/account/undelete',
    operationId: 'undeleteAccount',
    tag: TOKENS,
    auth: 'account',
    scope: 'none',
    whileDeletionPending: true,
    summary: 'Restore an account scheduled for deletion',
    description: 'Within 30 days of the request (409 `conflict` after).',
    errors: ['conflict'],
    responses: {
      200: {
        description: 'Restored, or it was not scheduled',
        schema: z.union([z.object({ restored: z.literal(true) }), z.object({ restored: z.literal(false), alreadyActive: z.literal(true) })]),
      },
    },
  }),
]);

const DASHBOARD = 'Dashboard';

/** The dashboard's own endpoints under /api: served like the API's, outside its document (lib/openapi/operations.ts). */
export const userDashboardEndpoints = byId([
  operation({
    method: 'post',
    path: '/api/sign-up',
    operationId: 'signUp',
    tag: DASHBOARD,
    auth: 'optional',
    scope: 'none',
    summary: 'Sign up from the dashboard (throttled per address)',
    body: signUpSchema,
    responses: { 201: { description: 'The new user' } },
  }),
  operation({
    method: 'post',
    path: '/api/verify-email',
    operationId: 'verifyEmail',
    tag: DASHBOARD,
    auth: 'optional',
    scope: 'none',
    summary: 'Verify an address with the token of the e-mailed link',
    body: verifyEmailSchema,
    responses: { 200: { description: 'Verified' } },
  }),
  operation({
    method: 'post',
    path: '/api/verify-email/resend',
    operationId: 'resendVerification',
    tag: DASHBOARD,
    auth: 'account',
    scope: 'none',
    summary: 'Send a new verification link',
    responses: { 200: { description: 'Sent, or already verified' } },
  }),
  operation({
    method: 'post',
    path: '/api/password-reset',
    operationId: 'requestPasswordReset',
    tag: DASHBOARD,
    auth: 'none',
    scope: 'none',
    summary: 'Ask for a reset link (202 and the same body whether or not an account has the address)',
    body: passwordResetRequestSchema,
    responses: { 202: { description: 'Accepted' } },
  }),
  operation({
    method: 'post',
    path: '/api/password-reset/complete',
    operationId: 'completePasswordReset',
    tag: DASHBOARD,
    auth: 'none',
    scope: 'none',
    summary: "Set a new password with the link's token; signs out every session and revokes the account tokens",
    body: passwordResetCompleteSchema,
    responses: { 200: { description: 'Reset' } },
  }),
]);
