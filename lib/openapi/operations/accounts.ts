// Users, workspaces, members, invitations, access tokens, the account and the operator's tools
// (docs/api.md: Users, workspaces, invitations; Access tokens and the account; Operator).
import { z } from 'zod';
import { findWorkspacesQuery, grantCreditsSchema, listActionsQuery, updateWorkspaceSchema } from '../../admin/schemas';
import { createInvitationSchema } from '../../invitations/schemas';
import { createAccessTokenSchema } from '../../tokens/schemas';
import { changePasswordSchema, updateAccountSchema } from '../../users/schemas';
import { createWorkspaceSchema, deleteWorkspaceSchema, setActiveWorkspaceSchema } from '../../workspaces/schemas';
import { byId, operation } from '../operation';
import {
  accessToken, accessTokenWithPlaintext, accountDeletion, adminWorkspace, creditGrant, invitation, operatorAction, pendingTestCheckout, invitationLookup, invitationSent, me, member, user, workspaceRef,
} from '../resources/accounts';
import { count, ex, list, paged } from '../resources/common';

const USERS = 'Users and workspaces';
const TOKENS = 'Access tokens and the account';
const OPERATOR = 'Operator';

export const accountOperations = [
  operation({
    method: 'get', path: '/v1/me', operationId: 'getMe', tag: USERS, auth: 'account', scope: 'workspace-if-any', whileDeletionPending: true,
    summary: 'The caller, their workspaces and the active workspace and router',
    description: 'Also answers while the account is scheduled for deletion (`deletionScheduledAt` says until when it can be restored).',
    responses: { 200: { description: 'The caller', schema: me } },
  }),
  operation({
    method: 'get', path: '/v1/workspaces', operationId: 'listWorkspaces', tag: USERS, auth: 'account', scope: 'none',
    summary: "The caller's workspaces with their role",
    responses: { 200: { description: 'Every workspace the caller belongs to, oldest membership first', schema: list(workspaceRef) } },
  }),
  operation({
    method: 'post', path: '/v1/workspaces', operationId: 'createWorkspace', tag: USERS, auth: 'account', scope: 'none',
    summary: 'Create a workspace owned by the caller', description: 'Beyond the contract (docs/decisions.md). The new workspace becomes the dashboard\'s active one.',
    body: createWorkspaceSchema, bodyExample: { name: 'Research' },
    responses: { 201: { description: 'The new workspace', schema: workspaceRef } },
  }),
  operation({
    method: 'post', path: '/v1/workspaces/active', operationId: 'setActiveWorkspace', tag: USERS, auth: 'account', scope: 'none',
    summary: 'Choose the workspace the dashboard opens', description: 'Bearer calls ignore it: they pick a workspace with `X-Workspace-Id`.',
    body: setActiveWorkspaceSchema, bodyExample: { workspaceId: ex.workspaceId }, errors: ['not_a_member'],
    responses: { 200: { description: 'The active workspace', schema: z.object({ activeWorkspaceId: z.string() }) } },
  }),
  operation({
    method: 'delete', path: '/v1/workspaces/current', operationId: 'deleteWorkspace', tag: USERS, auth: 'cookie', role: 'owner',
    summary: 'Delete the workspace and everything in it', description: 'The body confirms it with the workspace\'s slug.',
    body: deleteWorkspaceSchema, bodyExample: { confirm: 'ada-lovelace' },
    responses: { 200: { description: 'Deleted', schema: z.object({ id: z.string(), slug: z.string(), deleted: z.literal(true) }) } },
  }),
  operation({
    method: 'post', path: '/v1/workspaces/current/leave', operationId: 'leaveWorkspace', tag: USERS, auth: 'account',
    summary: 'Leave the workspace', description: 'Any member but the owner (403 `forbidden`).', errors: ['forbidden'],
    responses: { 200: { description: 'Left', schema: z.object({ workspaceId: z.string(), left: z.literal(true) }) } },
  }),
  operation({
    method: 'get', path: '/v1/workspaces/current/members', operationId: 'listMembers', tag: USERS, auth: 'account',
    summary: 'Members of the workspace',
    responses: { 200: { description: 'Every member, oldest first', schema: list(member) } },
  }),
  operation({
    method: 'delete', path: '/v1/workspaces/current/members/{userId}', operationId: 'removeMember', tag: USERS, auth: 'cookie', role: 'admin',
    summary: 'Remove a member', description: 'Never the owner, nor the caller (leave instead).', params: { userId: "the member's user id" },
    responses: { 200: { description: 'Removed', schema: z.object({ userId: z.string(), removed: z.literal(true) }) } },
  }),
  operation({
    method: 'get', path: '/v1/invitations', operationId: 'listInvitations', tag: USERS, auth: 'account',
    summary: 'Pending invitations of the workspace',
    responses: { 200: { description: 'Pending invitations, newest first', schema: list(invitation) } },
  }),
  operation({
    method: 'post', path: '/v1/invitations', operationId: 'createInvitation', tag: USERS, auth: 'cookie', role: 'admin',
    summary: 'Invite someone by e-mail', description: 'E-mails a link valid 7 days; `delivery` says whether the mail server took it or it waits in the Outbox.',
    body: createInvitationSchema, bodyExample: { email: 'grace@example.com', role: 'member' }, errors: ['conflict', 'fair_use_limit_reached'],
    responses: { 201: { description: 'The invitation and how its e-mail was delivered', schema: invitationSent } },
  }),
  operation({
    method: 'delete', path: '/v1/invitations/{id}', operationId: 'cancelInvitation', tag: USERS, auth: 'account', role: 'admin',
    summary: 'Cancel a pending invitation', params: { id: 'the invitation id' },
    responses: { 200: { description: 'Cancelled', schema: z.object({ id: z.string(), cancelled: z.literal(true) }) } },
  }),
  operation({
    method: 'post', path: '/v1/invitations/{id}/resend', operationId: 'resendInvitation', tag: USERS, auth: 'account', role: 'admin',
    summary: 'Send the invitation again with a new link and expiry', description: 'The old link stops working. At most 5 times an hour.', params: { id: 'the invitation id' },
    errors: ['rate_limited'],
    responses: { 200: { description: 'The invitation and how its e-mail was delivered', schema: invitationSent } },
  }),
  operation({
    method: 'get', path: '/v1/invitations/{id}/lookup', operationId: 'lookupInvitation', tag: USERS, auth: 'optional', scope: 'none',
    summary: 'Who invites to what, and until when', description: 'Anyone with the link may ask.', params: { id: "the invitation link's token" },
    responses: { 200: { description: 'The invitation', schema: invitationLookup } },
  }),
  operation({
    method: 'post', path: '/v1/invitations/{id}/accept', operationId: 'acceptInvitation', tag: USERS, auth: 'account', scope: 'none',
    summary: 'Join the workspace', description: 'The signed-in user must be the invited address.', params: { id: "the invitation link's token" },
    errors: ['forbidden', 'invitation_expired', 'fair_use_limit_reached'],
    responses: { 200: { description: 'Joined', schema: z.object({ workspace: workspaceRef, accepted: z.literal(true) }) } },
  }),
  operation({
    method: 'post', path: '/v1/invitations/{id}/decline', operationId: 'declineInvitation', tag: USERS, auth: 'account', scope: 'none',
    summary: 'Decline an invitation', description: 'The signed-in user must be the invited address.', params: { id: "the invitation link's token" },
    errors: ['forbidden', 'invitation_expired'],
    responses: { 200: { description: 'Declined', schema: z.object({ id: z.string(), declined: z.literal(true) }) } },
  }),

  operation({
    method: 'get', path: '/v1/access-tokens', operationId: 'listAccessTokens', tag: TOKENS, auth: 'account', scope: 'none',
    summary: "The caller's access tokens",
    responses: { 200: { description: 'Live and revoked tokens, newest first, and the cap of live ones', schema: list(accessToken).extend({ cap: count }) } },
  }),
  operation({
    method: 'post', path: '/v1/access-tokens', operationId: 'createAccessToken', tag: TOKENS, auth: 'cookie', scope: 'none',
    summary: 'Create an access token', description: 'The plaintext is in this answer only. At most 10 live tokens (409 `limit_reached`).',
    body: createAccessTokenSchema, bodyExample: { label: 'CI' }, errors: ['limit_reached'],
    responses: { 201: { description: 'The token with its plaintext', schema: accessTokenWithPlaintext } },
  }),
  operation({
    method: 'delete', path: '/v1/access-tokens/{id}', operationId: 'deleteAccessToken', tag: TOKENS, auth: 'cookie', scope: 'none',
    summary: 'Delete an access token', params: { id: 'the token id' },
    responses: { 200: { description: 'Deleted', schema: z.object({ id: z.string() }) } },
  }),
  operation({
    method: 'post', path: '/v1/access-tokens/{id}/revoke', operationId: 'revokeAccessToken', tag: TOKENS, auth: 'cookie', scope: 'none',
    summary: 'Revoke an access token', description: 'It stays listed, revoked.', params: { id: 'the token id' },
    responses: { 200: { description: 'The revoked token', schema: accessToken } },
  }),
  operation({
    method: 'post', path: '/v1/access-tokens/{id}/rotate', operationId: 'rotateAccessToken', tag: TOKENS, auth: 'cookie', scope: 'none',
    summary: 'Give an access token a new value', description: 'Same label and creation date; the old value fails at once.', params: { id: 'the token id' },
    errors: ['conflict'],
    responses: { 200: { description: 'The token with its new plaintext', schema: accessTokenWithPlaintext } },
  }),
  operation({
    method: 'patch', path: '/v1/account', operationId: 'updateAccount', tag: TOKENS, auth: 'account', scope: 'none',
    summary: 'Change the account\'s name', description: 'The e-mail address cannot be changed.',
    body: updateAccountSchema, bodyExample: { name: 'Ada King' },
    responses: { 200: { description: 'The account as `GET /v1/me` shows it', schema: z.object({ user }) } },
  }),
  operation({
    method: 'post', path: '/v1/account/password', operationId: 'changePassword', tag: TOKENS, auth: 'cookie', scope: 'none',
    summary: 'Change the password',
    description: 'Needs the current password (a wrong one counts towards the sign-in throttle of the address). Signs out every other session; this one gets a renewed cookie. Account tokens stay valid. A forgotten password is reset by e-mail instead (`POST /api/password-reset`).',
    body: changePasswordSchema, bodyExample: { currentPassword: 'the old passphrase', newPassword: 'a new long passphrase' },
    errors: ['rate_limited'],
    responses: { 200: { description: 'Changed', schema: z.object({ changed: z.literal(true) }) } },
  }),
  operation({
    method: 'delete', path: '/v1/account', operationId: 'deleteAccount', tag: TOKENS, auth: 'account', scope: 'none',
    summary: 'Schedule the account for deletion',
    description: 'Marks the account and the workspaces it owns alone for deletion and signs out everywhere; it can be undone for 30 days.',
    errors: ['workspaces_have_other_members'],
    responses: { 200: { description: 'Scheduled', schema: accountDeletion } },
  }),
  operation({
    method: 'post', path: '/v1/account/undelete', operationId: 'undeleteAccount', tag: TOKENS, auth: 'account', scope: 'none', whileDeletionPending: true,
    summary: 'Restore an account scheduled for deletion', description: 'Within 30 days of the request (409 `conflict` after).', errors: ['conflict'],
    responses: { 200: { description: 'Restored, or it was not scheduled', schema: z.union([z.object({ restored: z.literal(true) }), z.object({ restored: z.literal(false), alreadyActive: z.literal(true) })]) } },
  }),

  operation({
    method: 'get', path: '/v1/admin/workspaces', operationId: 'findWorkspaces', tag: OPERATOR, auth: 'account', scope: 'none', operator: true,
    summary: 'Find workspaces of this installation', description: 'By id, or text in the slug, the name or the owner\'s e-mail (any case); newest first.',
    query: findWorkspacesQuery,
    responses: { 200: { description: 'One page of workspaces', schema: paged(adminWorkspace) } },
  }),
  operation({
    method: 'patch', path: '/v1/admin/workspaces/{id}', operationId: 'updateWorkspace', tag: OPERATOR, auth: 'account', scope: 'none', operator: true,
    summary: 'Mark a workspace enterprise, or suspend it',
    description: '`enterprise` also sets the plan; `suspended: true` closes the workspace\'s live sessions on every proxy at once and refuses its connects and data-API calls with 402.',
    params: { id: 'the workspace id' }, body: updateWorkspaceSchema, bodyExample: { suspended: true },
    responses: { 200: { description: 'The workspace', schema: adminWorkspace } },
  }),
  operation({
    method: 'post', path: '/v1/admin/workspaces/{id}/credits', operationId: 'grantCredits', tag: OPERATOR, auth: 'account', scope: 'none', operator: true,
    summary: 'Grant credit to a workspace', description: 'One `grant` ledger entry; every call is a new grant.',
    params: { id: 'the workspace id' }, body: grantCreditsSchema, bodyExample: { amountCents: 2500, note: 'launch credit' },
    responses: { 201: { description: 'The grant and the workspace after it', schema: creditGrant } },
  }),
  operation({
    method: 'get', path: '/v1/admin/actions', operationId: 'listOperatorActions', tag: OPERATOR, auth: 'account', scope: 'none', operator: true,
    summary: "The operator's audit log",
    description: 'Every grant of credit, suspension, enterprise mark and change of operator rights, newest first; `workspaceId` keeps one workspace\'s.',
    query: listActionsQuery,
    responses: { 200: { description: 'One page of actions', schema: paged(operatorAction) } },
  }),
  operation({
    method: 'get', path: '/v1/admin/test-checkouts', operationId: 'listPendingTestCheckouts', tag: OPERATOR, auth: 'account', scope: 'none', operator: true,
    summary: 'Test payments waiting for the operator',
    description: 'In test mode (no `STRIPE_SECRET_KEY`): opened top-ups not yet confirmed, cancelled or 24 hours old, newest first, at most 100.',
    responses: { 200: { description: 'The waiting top-ups', schema: z.object({ items: z.array(pendingTestCheckout) }) } },
  }),
];

export const accountOps = byId(accountOperations);
