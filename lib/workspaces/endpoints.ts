// Workspaces and their members (docs/api.md: Users, workspaces, invitations).
// Each entry declares one endpoint: its route file serves it through endpoint() (lib/api/endpoint.ts)
// and the OpenAPI document describes it (lib/openapi/document.ts).
import { z } from 'zod';
import { byId, operation } from '../openapi/operation';
import { member, workspaceRef } from '../openapi/resources/accounts';
import { ex, list } from '../openapi/resources/common';
import { createWorkspaceSchema, deleteWorkspaceSchema, setActiveWorkspaceSchema } from './schemas';

const USERS = 'Users and workspaces';

export const workspaceEndpoints = byId([
  operation({
    method: 'get',
    path: '/v1/workspaces',
    operationId: 'listWorkspaces',
    tag: USERS,
    auth: 'account',
    scope: 'none',
    summary: "The caller's workspaces with their role",
    responses: { 200: { description: 'Every workspace the caller belongs to, oldest membership first', schema: list(workspaceRef) } },
  }),
  operation({
    method: 'post',
    path: '/v1/workspaces',
    operationId: 'createWorkspace',
    tag: USERS,
    auth: 'account',
    scope: 'none',
    summary: 'Create a workspace owned by the caller',
    description: "Beyond the contract (docs/decisions.md). The new workspace becomes the dashboard's active one.",
    body: createWorkspaceSchema,
    bodyExample: { name: 'Research' },
    responses: { 201: { description: 'The new workspace', schema: workspaceRef } },
  }),
  operation({
    method: 'post',
    path: '/v1/workspaces/active',
    operationId: 'setActiveWorkspace',
    tag: USERS,
    auth: 'account',
    scope: 'none',
    summary: 'Choose the workspace the dashboard opens',
    description: 'Bearer calls ignore it: they pick a workspace with `X-Workspace-Id`.',
    body: setActiveWorkspaceSchema,
    bodyExample: { workspaceId: ex.workspaceId },
    errors: ['not_a_member'],
    responses: { 200: { description: 'The active workspace', schema: z.object({ activeWorkspaceId: z.string() }) } },
  }),
  operation({
    method: 'delete',
    path: '/v1/workspaces/current',
    operationId: 'deleteWorkspace',
    tag: USERS,
    auth: 'cookie',
    role: 'owner',
    summary: 'Delete the workspace and everything in it',
    description: "The body confirms it with the workspace's slug.",
    body: deleteWorkspaceSchema,
    bodyExample: { confirm: 'ada-lovelace' },
    responses: { 200: { description: 'Deleted', schema: z.object({ id: z.string(), slug: z.string(), deleted: z.literal(true) }) } },
  }),
  operation({
    method: 'post',
    path: '/v1/workspaces/current/leave',
    operationId: 'leaveWorkspace',
    tag: USERS,
    auth: 'account',
    summary: 'Leave the workspace',
    description: 'Any member but the owner (403 `forbidden`).',
    errors: ['forbidden'],
    responses: { 200: { description: 'Left', schema: z.object({ workspaceId: z.string(), left: z.literal(true) }) } },
  }),
  operation({
    method: 'get',
    path: '/v1/workspaces/current/members',
    operationId: 'listMembers',
    tag: USERS,
    auth: 'account',
    summary: 'Members of the workspace',
    responses: { 200: { description: 'Every member, oldest first', schema: list(member) } },
  }),
  operation({
    method: 'delete',
    path: '/v1/workspaces/current/members/{userId}',
    operationId: 'removeMember',
    tag: USERS,
    auth: 'cookie',
    role: 'admin',
    summary: 'Remove a member',
    description: 'Never the owner, nor the caller (leave instead).',
    params: { userId: "the member's user id" },
    responses: { 200: { description: 'Removed', schema: z.object({ userId: z.string(), removed: z.literal(true) }) } },
  }),
]);
