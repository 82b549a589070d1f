// The mail outbox's endpoint: mail that could not go out by SMTP, for the dashboard's Outbox page.
// Served like the API's endpoints (lib/api/endpoint.ts), outside its document.
import { byId, operation } from '../openapi/operation';

/** The dashboard's own endpoints under /api: served like the API's, outside its document (lib/openapi/operations.ts). */
export const mailDashboardEndpoints = byId([
  operation({
    method: 'get',
    path: '/api/outbox',
    operationId: 'readOutbox',
    tag: 'Dashboard',
    auth: 'account',
    scope: 'none',
    summary: "The newest mail of the local outbox that is the caller's to read (the operator also gets everyone else's, without the text)",
    responses: { 200: { description: 'The mail' } },
  }),
]);
