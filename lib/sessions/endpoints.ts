// Sessions and the files their browsers downloaded (docs/api.md: Sessions).
// Each entry declares one endpoint: its route file serves it through endpoint() (lib/api/endpoint.ts)
// and the OpenAPI document describes it (lib/openapi/document.ts).
import { z } from 'zod';
import { byId, operation } from '../openapi/operation';
import { paged } from '../openapi/resources/common';
import { session, sessionClosed, sessionDetail, sessionDownloadList } from '../openapi/resources/sessions';
import { listSessionsQuery } from './schemas';

const SESSIONS = 'Sessions';
const bytes = z.string().meta({ format: 'binary' });

export const sessionEndpoints = byId([
  operation({
    method: 'get',
    path: '/v1/sessions',
    operationId: 'listSessions',
    tag: SESSIONS,
    auth: 'account',
    scope: 'router',
    counted: true,
    summary: 'Session history of the workspace',
    description:
      "Newest first; `since` defaults to 30 days ago and goes back at most 180. `provider` is a slug on the request's router (or `routerInstanceId`).",
    query: listSessionsQuery,
    responses: { 200: { description: 'One page of sessions', schema: paged(session) } },
  }),
  operation({
    method: 'get',
    path: '/v1/sessions/{id}',
    operationId: 'getSession',
    tag: SESSIONS,
    auth: 'account',
    counted: true,
    params: { id: 'the session id' },
    summary: 'One session',
    responses: { 200: { description: 'The session', schema: sessionDetail } },
  }),
  operation({
    method: 'post',
    path: '/v1/sessions/{id}/close',
    operationId: 'closeSession',
    tag: SESSIONS,
    auth: 'account',
    role: 'admin',
    counted: true,
    params: { id: 'the session id' },
    summary: 'Close a running session',
    description: "Ends the client's connection on the proxy that holds it; the provider's browser is not ended.",
    responses: { 200: { description: 'Closed now, or it was already over', schema: sessionClosed } },
  }),
  operation({
    method: 'get',
    path: '/v1/sessions/{id}/downloads',
    operationId: 'listSessionDownloads',
    tag: SESSIONS,
    auth: 'account',
    counted: true,
    params: { id: 'the session id' },
    summary: "Files the session's browser downloaded",
    description:
      'What a browser of the local pool saved, collected when the session ends (at most 50 files and 100 MB a session; later files are left out), kept 60 days. ' +
      'In the order they were saved; `url` is the file endpoint of each. Empty for a session still running, or on another provider. No pages.',
    responses: { 200: { description: 'The files', schema: sessionDownloadList } },
  }),
  operation({
    method: 'get',
    path: '/v1/sessions/{id}/downloads/{downloadId}',
    operationId: 'getSessionDownload',
    tag: SESSIONS,
    auth: 'account',
    counted: true,
    params: { id: 'the session id', downloadId: 'the download id (`id` of the list)' },
    summary: 'One downloaded file',
    description: 'The bytes as the browser saved them, streamed. HEAD answers the same headers.',
    responses: {
      200: {
        description: 'The file',
        envelope: false,
        contentType: 'application/octet-stream',
        schema: bytes,
        headers: {
          'Content-Disposition': { description: '`attachment; filename="<ASCII stand-in>"; filename*=UTF-8\'\'<the saved name, percent-encoded>` (RFC 6266)' },
          'Content-Length': { description: 'the size in bytes', schema: { type: 'integer' } },
        },
      },
    },
  }),
]);

const DASHBOARD = 'Dashboard';

/** The dashboard's own endpoints under /api: served like the API's, outside its document (lib/openapi/operations.ts). */
export const sessionDashboardEndpoints = byId([
  operation({
    method: 'get',
    path: '/api/sessions/{id}/live',
    operationId: 'watchSessionLive',
    tag: DASHBOARD,
    auth: 'cookie',
    scope: 'none',
    summary:
      "A running recorded session's pages as Server-Sent Events, for an owner or admin of its workspace (404 for one the user cannot see, 409 when it has ended or is not recorded)",
    responses: { 200: { description: 'The event stream', envelope: false, contentType: 'text/event-stream' } },
  }),
]);
