// Every endpoint's declaration, in the order the reference shows them. Each is declared beside its
// domain (lib/<domain>/endpoints.ts); this list is what the document and the route table read.
import type { OperationSpec } from './operation';
import { accessTokenEndpoints } from '../tokens/endpoints';
import { billingDashboardEndpoints, billingEndpoints } from '../billing/endpoints';
import { invitationEndpoints } from '../invitations/endpoints';
import { mailDashboardEndpoints } from '../mail/endpoints';
import { operatorDashboardEndpoints, operatorEndpoints } from '../admin/endpoints';
import { overviewEndpoints } from '../overview/endpoints';
import { profileEndpoints } from '../profiles/endpoints';
import { providerEndpoints } from '../providers/endpoints';
import { proxyEndpoints } from '../data-api/endpoints';
import { recordingEndpoints } from '../recordings/endpoints';
import { referenceEndpoints } from './endpoints';
import { routerDashboardEndpoints, routerEndpoints } from '../routers/endpoints';
import { routerKeyEndpoints } from '../keys/endpoints';
import { sessionDashboardEndpoints, sessionEndpoints } from '../sessions/endpoints';
import { traceEndpoints } from '../traces/endpoints';
import { userDashboardEndpoints, userEndpoints } from '../users/endpoints';
import { webhookEndpoints } from '../webhooks/endpoints';
import { workspaceEndpoints } from '../workspaces/endpoints';

export const OPERATIONS: readonly OperationSpec[] = [
  ...Object.values(userEndpoints),
  ...Object.values(workspaceEndpoints),
  ...Object.values(invitationEndpoints),
  ...Object.values(accessTokenEndpoints),
  ...Object.values(operatorEndpoints),
  ...Object.values(routerEndpoints),
  ...Object.values(routerKeyEndpoints),
  ...Object.values(providerEndpoints),
  ...Object.values(overviewEndpoints),
  ...Object.values(sessionEndpoints),
  ...Object.values(recordingEndpoints),
  ...Object.values(traceEndpoints),
  ...Object.values(profileEndpoints),
  ...Object.values(webhookEndpoints),
  ...Object.values(billingEndpoints),
  ...Object.values(proxyEndpoints),
  ...Object.values(referenceEndpoints),
];

/**
 * The dashboard's own endpoints under /api (sign-up, e-mail links, the outbox, the live view…):
 * served and checked like the API's, but not part of its document.
 */
export const DASHBOARD_OPERATIONS: readonly OperationSpec[] = [
  ...Object.values(userDashboardEndpoints),
  ...Object.values(mailDashboardEndpoints),
  ...Object.values(operatorDashboardEndpoints),
  ...Object.values(routerDashboardEndpoints),
  ...Object.values(sessionDashboardEndpoints),
  ...Object.values(billingDashboardEndpoints),
];

/** The tags in reading order, each with what it covers. */
export const TAGS: readonly { name: string; description: string }[] = [
  { name: 'Users and workspaces', description: 'The caller, workspaces, members and invitations.' },
  { name: 'Access tokens and the account', description: 'Account tokens (`acct_…`) and deleting or restoring the account.' },
  { name: 'Routers', description: 'A router is what a router key connects to: a set of providers and the rules for choosing one.' },
  { name: 'Router keys and chat links', description: 'Router keys (`rkey_…`) for the connect endpoint and the data API; chat links for the MCP endpoint.' },
  { name: 'Providers', description: 'The upstreams that serve browsers over CDP, on the router from `X-Router-Id`.' },
  { name: 'Sessions', description: "Every browser session that went through the workspace's routers." },
  { name: 'Recordings', description: 'Videos of sessions opened with `session_record=true`.' },
  { name: 'Traces', description: 'Network, console and navigation events of sessions opened with `observability=true`.' },
  { name: 'Profiles', description: 'Saved browser state that sessions load and save.' },
  { name: 'Webhooks', description: 'Deliveries to your systems when sessions end or fail.' },
  { name: 'Billing', description: 'The prepaid wallet, usage and top-ups. Errors here have a bare string `error`.' },
  { name: 'Operator', description: "The instance operator's tools across every workspace of the installation." },
  { name: 'Connect', description: "On the proxy, with a router key: the WebSocket connect endpoint and the router's status." },
  { name: 'Data API', description: 'On the proxy, with a router key: one browser action per HTTP call.' },
  { name: 'Reference', description: 'This document.' },
];
