// Answers about people and workspaces: /v1/me, workspaces and members, invitations, access tokens,
// the account, and the operator's view of a workspace (docs/api.md).
import { z } from 'zod';
import { MAIL_DELIVERIES } from '../../mail/delivery';
import { accountState, count, ex, named, role, timestamp } from './common';

export const user = z.object({ id: z.string(), email: z.string(), name: z.string(), emailVerified: z.boolean(), image: z.string().nullable() });

export const workspaceRef = named('WorkspaceRef', z.object({ id: z.string(), slug: z.string(), name: z.string(), role }), {
  description: "A workspace as its member sees it, with the member's role.",
  example: { id: ex.workspaceId, slug: 'ada-lovelace', name: "Ada's workspace", role: 'owner' },
});

export const routerRef = z.object({ id: z.string(), slug: z.string(), name: z.string() });

export const me = named(
  'Me',
  z.object({
    user,
    workspaces: z.array(workspaceRef),
    activeWorkspaceId: z.string().nullable(),
    activeWorkspacePlan: z.string().nullable().describe('`free` or `enterprise`'),
    activeWorkspaceAccountState: accountState.nullable().describe('`paid` means the wallet balance is above zero right now'),
    routers: z.array(routerRef).describe("the active workspace's routers"),
    activeRouterInstanceId: z.string().nullable(),
    isAdmin: z.boolean().describe('the instance operator'),
    deletionScheduledAt: timestamp.nullable().describe('when a deleted account is purged; null unless deletion was requested'),
  }),
  {
    example: {
      user: { id: ex.userId, email: 'ada@example.com', name: 'Ada Lovelace', emailVerified: true, image: null },
      workspaces: [{ id: ex.workspaceId, slug: 'ada-lovelace', name: "Ada's workspace", role: 'owner' }],
      activeWorkspaceId: ex.workspaceId,
      activeWorkspacePlan: 'free',
      activeWorkspaceAccountState: 'free',
      routers: [{ id: ex.routerId, slug: 'default', name: 'Default router' }],
      activeRouterInstanceId: ex.routerId,
      isAdmin: false,
      deletionScheduledAt: null,
    },
  },
);

export const member = named(
  'Member',
  z.object({ id: z.string(), userId: z.string(), role, joinedAt: timestamp, name: z.string(), email: z.string(), image: z.string().nullable() }),
  {
    example: {
      id: 'cm3kq2b3c0007a8s2p4o3i2u1',
      userId: ex.userId,
      role: 'owner',
      joinedAt: ex.at,
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      image: null,
    },
  },
);

const invitationExample = {
  id: 'cm3kq2b3d0008a8s2l1k2j3h4',
  email: 'grace@example.com',
  role: 'member',
  expiresAt: '2026-12-01T10:15:00.000Z',
  createdAt: ex.at,
  invitedByName: 'Ada Lovelace',
} as const;

export const invitation = named(
  'Invitation',
  z.object({ id: z.string(), email: z.string(), role, expiresAt: timestamp, createdAt: timestamp, invitedByName: z.string() }),
  { description: 'A pending invitation (the link itself is only in the e-mail).', example: invitationExample },
);

export const invitationSent = named(
  'InvitationSent',
  invitation.extend({
    delivery: z
      .enum(MAIL_DELIVERIES)
      .describe(
        'how the e-mail went: `smtp` handed to the mail server; `outbox` no mail server is configured (no `SMTP_URL`), so it was kept in the Outbox, where whoever sent it reads the link to pass it on; `smtp_failed` the mail server refused it and it was kept in the Outbox (resend to try again)',
      ),
  }),
  { description: 'The invitation, and how its e-mail was delivered.', example: { ...invitationExample, delivery: 'smtp' } },
);

export const invitationLookup = z.object({
  workspaceName: z.string(),
  workspaceSlug: z.string(),
  inviterName: z.string(),
  email: z.string(),
  role,
  expiresAt: timestamp,
  expired: z.boolean(),
});

const tokenExample = {
  id: 'cm3kq2b3e0009a8s2g5f6d7s8',
  label: 'CI',
  prefix: 'acct_3F9kQ2',
  scopes: 'account:full',
  lastUsedAt: null,
  revokedAt: null,
  createdAt: ex.at,
};

export const accessToken = named(
  'AccessToken',
  z.object({
    id: z.string(),
    label: z.string(),
    prefix: z.string().describe('the first characters of the token, to recognise it'),
    scopes: z.string().describe('`account:full`'),
    lastUsedAt: timestamp.nullable().describe('updated at most hourly'),
    revokedAt: timestamp.nullable(),
    createdAt: timestamp,
  }),
  { example: tokenExample },
);

export const accessTokenWithPlaintext = named(
  'AccessTokenWithPlaintext',
  accessToken.extend({ plaintextToken: z.string().describe('the token itself, shown in this answer only') }),
  {
    example: { ...tokenExample, plaintextToken: 'acct_3F9kQ2Lm8Vx1Rb7Nc4Pd0Sg6Ht2Jw5Ky9Zq3' },
  },
);

export const accountDeletion = z.object({
  deletionRequestedAt: timestamp,
  purgeAfter: timestamp,
  workspaces: z.array(z.string()).describe('slugs of the workspaces deleted with the account'),
});

export const adminWorkspace = named(
  'AdminWorkspace',
  z.object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    owner: z.object({ id: z.string(), email: z.string(), name: z.string() }).nullable(),
    memberCount: count,
    plan: z.string(),
    enterprise: z.boolean(),
    suspended: z.boolean(),
    accountState,
    balanceUsdCents: z.int(),
    balanceMillicents: z.int(),
    dailyCap: count,
    deletionRequestedAt: timestamp.nullable(),
    createdAt: timestamp,
  }),
  {
    description: 'A workspace as the instance operator sees it (docs/api.md, Operator).',
    example: {
      id: ex.workspaceId,
      slug: 'ada-lovelace',
      name: "Ada's workspace",
      owner: { id: ex.userId, email: 'ada@example.com', name: 'Ada Lovelace' },
      memberCount: 1,
      plan: 'free',
      enterprise: false,
      suspended: false,
      accountState: 'paid',
      balanceUsdCents: 2500,
      balanceMillicents: 2_500_000,
      dailyCap: 100_000,
      deletionRequestedAt: null,
      createdAt: ex.at,
    },
  },
);

export const creditGrant = z.object({
  grant: z.object({ cause: z.string().describe('`grant:<uuid>`'), amountCents: z.int(), note: z.string() }),
  workspace: adminWorkspace,
});

export const operatorAction = named(
  'OperatorAction',
  z.object({
    id: z.string(),
    action: z.enum([
      'credits_granted',
      'workspace_suspended',
      'workspace_unsuspended',
      'workspace_enterprise',
      'workspace_not_enterprise',
      'operator_claimed',
      'operator_granted',
      'operator_revoked',
      'password_reset_link',
    ]),
    actor: z
      .object({ id: z.string(), email: z.string().nullable() })
      .nullable()
      .describe('the operator who did it; null for the command line (`npm run operator`, `npm run seed`)'),
    workspaceId: z.string().nullable(),
    target: z.string().nullable().describe("the workspace's name, or the account's e-mail, when it was done"),
    detail: z.record(z.string(), z.unknown()).describe('`amountCents`, `note` and `cause` for a grant; empty otherwise'),
    createdAt: timestamp,
  }),
  {
    description: "One entry of the operator's audit log (docs/api.md, Operator).",
    example: {
      id: 'cmactn0000000000000000001',
      action: 'credits_granted',
      actor: { id: ex.userId, email: 'operator@example.com' },
      workspaceId: ex.workspaceId,
      target: "Ada's workspace",
      detail: { amountCents: 2500, note: 'launch credit', cause: 'grant:0b0f2d8e-3c1a-4b5e-9f7d-2a6c8e4b1d3f' },
      createdAt: ex.at,
    },
  },
);

export const pendingTestCheckout = z.object({
  id: z.string(),
  workspaceId: z.string(),
  workspaceName: z.string(),
  creditCents: z.int(),
  chargeCents: z.int(),
  createdAt: timestamp,
  path: z.string().describe('the test checkout page, under the dashboard: `/billing/test-checkout/<id>`'),
});
