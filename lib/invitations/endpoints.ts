// Invitations to a workspace, and answering one (docs/api.md: Users, workspaces, invitations).
// Each entry declares one endpoint: its route file serves it through endpoint() (lib/api/endpoint.ts)
// and the OpenAPI document describes it (lib/openapi/document.ts).
import { z } from 'zod';
import { byId, operation } from '../openapi/operation';
import { invitation, invitationLookup, invitationSent, workspaceRef } from '../openapi/resources/accounts';
import { list } from '../openapi/resources/common';
import { createInvitationSchema } from './schemas';

const USERS = 'Users and workspaces';

export const invitationEndpoints = byId([
  operation({
    method: 'get',
    path: '/v1/invitations',
    operationId: 'listInvitations',
    tag: USERS,
    auth: 'account',
    summary: 'Pending invitations of the workspace',
    responses: { 200: { description: 'Pending invitations, newest first', schema: list(invitation) } },
  }),
  operation({
    method: 'post',
    path: '/v1/invitations',
    operationId: 'createInvitation',
    tag: USERS,
    auth: 'cookie',
    role: 'admin',
    summary: 'Invite someone by e-mail',
    description: 'E-mails a link valid 7 days; `delivery` says whether the mail server took it or it waits in the Outbox.',
    body: createInvitationSchema,
    bodyExample: { email: 'grace@example.com', role: 'member' },
    errors: ['conflict', 'fair_use_limit_reached'],
    responses: { 201: { description: 'The invitation and how its e-mail was delivered', schema: invitationSent } },
  }),
  operation({
    method: 'delete',
    path: '/v1/invitations/{id}',
    operationId: 'cancelInvitation',
    tag: USERS,
    auth: 'account',
    role: 'admin',
    summary: 'Cancel a pending invitation',
    params: { id: 'the invitation id' },
    responses: { 200: { description: 'Cancelled', schema: z.object({ id: z.string(), cancelled: z.literal(true) }) } },
  }),
  operation({
    method: 'post',
    path: '/v1/invitations/{id}/resend',
    operationId: 'resendInvitation',
    tag: USERS,
    auth: 'account',
    role: 'admin',
    summary: 'Send the invitation again with a new link and expiry',
    description: 'The old link stops working. At most 5 times an hour.',
    params: { id: 'the invitation id' },
    errors: ['rate_limited'],
    responses: { 200: { description: 'The invitation and how its e-mail was delivered', schema: invitationSent } },
  }),
  operation({
    method: 'get',
    path: '/v1/invitations/{id}/lookup',
    operationId: 'lookupInvitation',
    tag: USERS,
    auth: 'optional',
    scope: 'none',
    summary: 'Who invites to what, and until when',
    description: 'Anyone with the link may ask.',
    params: { id: "the invitation link's token" },
    responses: { 200: { description: 'The invitation', schema: invitationLookup } },
  }),
  operation({
    method: 'post',
    path: '/v1/invitations/{id}/accept',
    operationId: 'acceptInvitation',
    tag: USERS,
    auth: 'account',
    scope: 'none',
    summary: 'Join the workspace',
    description: 'The signed-in user must be the invited address.',
    params: { id: "the invitation link's token" },
    errors: ['forbidden', 'invitation_expired', 'fair_use_limit_reached'],
    responses: { 200: { description: 'Joined', schema: z.object({ workspace: workspaceRef, accepted: z.literal(true) }) } },
  }),
  operation({
    method: 'post',
    path: '/v1/invitations/{id}/decline',
    operationId: 'declineInvitation',
    tag: USERS,
    auth: 'account',
    scope: 'none',
    summary: 'Decline an invitation',
    description: 'The signed-in user must be the invited address.',
    params: { id: "the invitation link's token" },
    errors: ['forbidden', 'invitation_expired'],
    responses: { 200: { description: 'Declined', schema: z.object({ id: z.string(), declined: z.literal(true) }) } },
  }),
]);
