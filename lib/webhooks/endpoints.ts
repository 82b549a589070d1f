// Webhooks (docs/api.md, Webhooks).
// Each entry declares one endpoint: its route file serves it through endpoint() (lib/api/endpoint.ts)
// and the OpenAPI document describes it (lib/openapi/document.ts).
import { z } from 'zod';
import { byId, operation } from '../openapi/operation';
import { paged } from '../openapi/resources/common';
import { deliveryList, testDelivery, webhook } from '../openapi/resources/webhooks';
import { createWebhookSchema, listDeliveriesQuery, listWebhooksQuery, updateWebhookSchema } from './schemas';

const TAG = 'Webhooks';
const id = { id: 'the webhook id' };
const common = { tag: TAG, auth: 'account', counted: true } as const;

export const webhookEndpoints = byId([
  operation({
    ...common,
    method: 'get',
    path: '/v1/webhooks',
    operationId: 'listWebhooks',
    summary: 'Webhooks of the workspace',
    query: listWebhooksQuery,
    responses: { 200: { description: 'One page of webhooks, newest first; URLs masked', schema: paged(webhook) } },
  }),
  operation({
    ...common,
    method: 'post',
    path: '/v1/webhooks',
    operationId: 'createWebhook',
    role: 'admin',
    summary: 'Add a webhook',
    description: 'No `events` means every event; no `routerInstanceId` (or null) means every router. Put a secret in the URL: deliveries are not signed.',
    body: createWebhookSchema,
    bodyExample: { label: 'Ops alerts', url: 'https://hooks.example.com/browser-router?token=s3cr3t', events: ['session.error'] },
    errors: ['fair_use_limit_reached'],
    responses: { 201: { description: 'The webhook', schema: webhook } },
  }),
  operation({
    ...common,
    method: 'get',
    path: '/v1/webhooks/{id}',
    operationId: 'getWebhook',
    params: id,
    summary: 'One webhook',
    responses: { 200: { description: 'The webhook', schema: webhook } },
  }),
  operation({
    ...common,
    method: 'patch',
    path: '/v1/webhooks/{id}',
    operationId: 'updateWebhook',
    role: 'admin',
    params: id,
    summary: 'Change a webhook',
    description: 'Any subset; `active: false` drops the deliveries waiting for a retry.',
    body: updateWebhookSchema,
    bodyExample: { active: false },
    responses: { 200: { description: 'The webhook', schema: webhook } },
  }),
  operation({
    ...common,
    method: 'delete',
    path: '/v1/webhooks/{id}',
    operationId: 'deleteWebhook',
    role: 'admin',
    params: id,
    summary: 'Delete a webhook',
    description: 'Its deliveries and their log go with it.',
    responses: { 200: { description: 'Deleted', schema: z.object({ id: z.string() }) } },
  }),
  operation({
    ...common,
    method: 'post',
    path: '/v1/webhooks/{id}/test',
    operationId: 'testWebhook',
    role: 'admin',
    params: id,
    summary: 'Send one `webhook.test` delivery now',
    description: 'No retries; the attempt goes to the delivery log.',
    responses: { 200: { description: 'What the receiver answered', schema: testDelivery } },
  }),
  operation({
    ...common,
    method: 'get',
    path: '/v1/webhooks/{id}/deliveries',
    operationId: 'listWebhookDeliveries',
    params: id,
    summary: "A webhook's recent delivery attempts",
    description: 'Beyond the contract: newest first, each with where its delivery stands now.',
    query: listDeliveriesQuery,
    responses: { 200: { description: 'The attempts', schema: deliveryList } },
  }),
]);
