// The instance operator's tools (docs/api.md: Operator), declared `operator`: endpoint() lets only
// the operator through.
// Each entry declares one endpoint: its route file serves it through endpoint() (lib/api/endpoint.ts)
// and the OpenAPI document describes it (lib/openapi/document.ts).
import { z } from 'zod';
import { byId, operation } from '../openapi/operation';
import { adminWorkspace, creditGrant, operatorAction, pendingTestCheckout } from '../openapi/resources/accounts';
import { paged } from '../openapi/resources/common';
import { claimOperatorSchema, findWorkspacesQuery, grantCreditsSchema, listActionsQuery, updateWorkspaceSchema } from './schemas';

const OPERATOR = 'Operator';

export const operatorEndpoints = byId([
  operation({
    method: 'get',
    path: '/v1/admin/workspaces',
    operationId: 'findWorkspaces',
    tag: OPERATOR,
    auth: 'account',
    scope: 'none',
    operator: true,
    summary: 'Find workspaces of this installation',
    description: "By id, or text in the slug, the name or the owner's e-mail (any case); newest first.",
    query: findWorkspacesQuery,
    responses: { 200: { description: 'One page of workspaces', schema: paged(adminWorkspace) } },
  }),
  operation({
    method: 'patch',
    path: '/v1/admin/workspaces/{id}',
    operationId: 'updateWorkspace',
    tag: OPERATOR,
    auth: 'account',
    scope: 'none',
    operator: true,
    summary: 'Mark a workspace enterprise, or suspend it',
    description:
      "`enterprise` also sets the plan; `suspended: true` closes the workspace's live sessions on every proxy at once and refuses its connects and data-API calls with 402.",
    params: { id: 'the workspace id' },
    body: updateWorkspaceSchema,
    bodyExample: { suspended: true },
    responses: { 200: { description: 'The workspace', schema: adminWorkspace } },
  }),
  operation({
    method: 'post',
    path: '/v1/admin/workspaces/{id}/credits',
    operationId: 'grantCredits',
    tag: OPERATOR,
    auth: 'account',
    scope: 'none',
    operator: true,
    summary: 'Grant credit to a workspace',
    description: 'One `grant` ledger entry; every call is a new grant.',
    params: { id: 'the workspace id' },
    body: grantCreditsSchema,
    bodyExample: { amountCents: 2500, note: 'launch credit' },
    responses: { 201: { description: 'The grant and the workspace after it', schema: creditGrant } },
  }),
  operation({
    method: 'get',
    path: '/v1/admin/actions',
    operationId: 'listOperatorActions',
    tag: OPERATOR,
    auth: 'account',
    scope: 'none',
    operator: true,
    summary: "The operator's audit log",
    description: "Every grant of credit, suspension, enterprise mark and change of operator rights, newest first; `workspaceId` keeps one workspace's.",
    query: listActionsQuery,
    responses: { 200: { description: 'One page of actions', schema: paged(operatorAction) } },
  }),
  operation({
    method: 'get',
    path: '/v1/admin/test-checkouts',
    operationId: 'listPendingTestCheckouts',
    tag: OPERATOR,
    auth: 'account',
    scope: 'none',
    operator: true,
    summary: 'Test payments waiting for the operator',
    description: 'In test mode (no `STRIPE_SECRET_KEY`): opened top-ups not yet confirmed, cancelled or 24 hours old, newest first, at most 100.',
    responses: { 200: { description: 'The waiting top-ups', schema: z.object({ items: z.array(pendingTestCheckout) }) } },
  }),
]);

const DASHBOARD = 'Dashboard';

/** The dashboard's own endpoints under /api: served like the API's, outside its document (lib/openapi/operations.ts). */
export const operatorDashboardEndpoints = byId([
  operation({
    method: 'post',
    path: '/api/operator/claim',
    operationId: 'claimOperator',
    tag: DASHBOARD,
    auth: 'cookie',
    scope: 'none',
    summary: "Become the installation's operator with the claim link's token",
    body: claimOperatorSchema,
    bodyExample: { token: 'the-claim-token' },
    responses: { 200: { description: 'The account is the operator' } },
  }),
]);
