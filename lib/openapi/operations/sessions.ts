// Sessions, recordings and traces (docs/api.md: Sessions; Recordings; Traces).
import { z } from 'zod';
import { downloadQuery, listRecordingsQuery } from '../../recordings/schemas';
import { listSessionsQuery } from '../../sessions/schemas';
import { overviewQuery } from '../../overview/schemas';
import { eventsQuery, listTracesQuery } from '../../traces/schemas';
import { byId, operation } from '../operation';
import { paged } from '../resources/common';
import { completeSummary, exportAnswer, manifest, recordingDetail, recordingList, session, sessionClosed, sessionDetail, sessionDownloadList } from '../resources/sessions';
import { eventsPage, traceDetail, traceEvent, traceList } from '../resources/traces';
import { overview } from '../resources/overview';

const SESSIONS = 'Sessions';
const RECORDINGS = 'Recordings';
const TRACES = 'Traces';
const recordingId = { id: 'the recording id' };
const traceId = { id: 'the trace id' };
const recordings = { tag: RECORDINGS, auth: 'account', counted: true, params: recordingId } as const;
const traces = { tag: TRACES, auth: 'account', scope: 'router', counted: true } as const;
const bytes = z.string().meta({ format: 'binary' });

export const sessionOperations = [
  operation({
    method: 'get', path: '/v1/overview', operationId: 'getOverview', tag: SESSIONS, auth: 'account',
    summary: 'The workspace at a glance',
    description: 'Sessions and data-API calls per UTC day over the last `days` (default 30), active sessions now, errors per provider, the routers with their figures, the wallet and the free sessions left this month, the newest sessions, and the getting-started checklist computed from what was done. Any member.',
    query: overviewQuery,
    responses: { 200: { description: 'The overview', schema: overview } },
  }),
  operation({
    method: 'get', path: '/v1/sessions', operationId: 'listSessions', tag: SESSIONS, auth: 'account', scope: 'router', counted: true,
    summary: 'Session history of the workspace',
    description: 'Newest first; `since` defaults to 30 days ago and goes back at most 180. `provider` is a slug on the request\'s router (or `routerInstanceId`).',
    query: listSessionsQuery,
    responses: { 200: { description: 'One page of sessions', schema: paged(session) } },
  }),
  operation({
    method: 'get', path: '/v1/sessions/{id}', operationId: 'getSession', tag: SESSIONS, auth: 'account', counted: true, params: { id: 'the session id' },
    summary: 'One session',
    responses: { 200: { description: 'The session', schema: sessionDetail } },
  }),
  operation({
    method: 'post', path: '/v1/sessions/{id}/close', operationId: 'closeSession', tag: SESSIONS, auth: 'account', role: 'admin', counted: true, params: { id: 'the session id' },
    summary: 'Close a running session', description: "Ends the client's connection on the proxy that holds it; the provider's browser is not ended.",
    responses: { 200: { description: 'Closed now, or it was already over', schema: sessionClosed } },
  }),
  operation({
    method: 'get', path: '/v1/sessions/{id}/downloads', operationId: 'listSessionDownloads', tag: SESSIONS, auth: 'account', counted: true, params: { id: 'the session id' },
    summary: "Files the session's browser downloaded",
    description:
      'What a browser of the local pool saved, collected when the session ends (at most 50 files and 100 MB a session; later files are left out), kept 60 days. ' +
      'In the order they were saved; `url` is the file endpoint of each. Empty for a session still running, or on another provider. No pages.',
    responses: { 200: { description: 'The files', schema: sessionDownloadList } },
  }),
  operation({
    method: 'get', path: '/v1/sessions/{id}/downloads/{downloadId}', operationId: 'getSessionDownload', tag: SESSIONS, auth: 'account', counted: true,
    params: { id: 'the session id', downloadId: 'the download id (`id` of the list)' },
    summary: 'One downloaded file', description: 'The bytes as the browser saved them, streamed. HEAD answers the same headers.',
    responses: {
      200: {
        description: 'The file', envelope: false, contentType: 'application/octet-stream', schema: bytes,
        headers: {
          'Content-Disposition': { description: "`attachment; filename=\"<ASCII stand-in>\"; filename*=UTF-8''<the saved name, percent-encoded>` (RFC 6266)" },
          'Content-Length': { description: 'the size in bytes', schema: { type: 'integer' } },
        },
      },
    },
  }),

  operation({
    method: 'get', path: '/v1/replays', operationId: 'listRecordings', tag: RECORDINGS, auth: 'account', counted: true,
    summary: 'Recordings of the last 30 days', description: 'Newest first; no pages: narrow with the filters.', query: listRecordingsQuery,
    responses: { 200: { description: 'The recordings', schema: recordingList } },
  }),
  operation({
    ...recordings, method: 'get', path: '/v1/replays/{id}', operationId: 'getRecording',
    summary: 'One recording',
    responses: { 200: { description: 'The recording with `orphaned`', schema: recordingDetail } },
  }),
  operation({
    ...recordings, method: 'delete', path: '/v1/replays/{id}', operationId: 'deleteRecording', role: 'admin',
    summary: 'Delete a recording', description: 'Its frames and its video are gone at once.',
    responses: { 200: { description: 'Deleted', schema: z.object({ id: z.string() }) } },
  }),
  operation({
    ...recordings, method: 'post', path: '/v1/replays/{id}/export', operationId: 'exportRecording',
    summary: 'Start the MP4 encode of a recording',
    description: 'A video already made is answered as such, and an encode under way is not asked for twice. A session\'s end starts the encode by itself; this is for a failed or orphaned one, or a video that went missing.',
    errors: ['not_complete'],
    responses: { 200: { description: 'Where the encode stands', schema: exportAnswer } },
  }),
  operation({
    ...recordings, method: 'get', path: '/v1/replays/{id}/export/download', operationId: 'downloadRecording',
    summary: 'The MP4', description: 'Byte ranges are served (206 with `Content-Range`); `?inline=1` for a `<video>` element. HEAD answers the same headers.',
    query: downloadQuery, errors: ['not_ready', 'range_not_satisfiable'],
    responses: {
      200: { description: 'The whole file', envelope: false, contentType: 'video/mp4', schema: bytes, headers: { 'Accept-Ranges': { description: '`bytes`' }, 'Content-Disposition': { description: '`attachment; filename="<session id>.mp4"`, or `inline`' } } },
      206: { description: 'The requested range', envelope: false, contentType: 'video/mp4', schema: bytes, headers: { 'Content-Range': { description: '`bytes a-b/<size>`' } } },
    },
  }),
  operation({
    ...recordings, method: 'get', path: '/v1/replays/{id}/manifest', operationId: 'getRecordingManifest',
    summary: 'The tabs and frames captured so far', description: 'Works while the recording is written.',
    responses: { 200: { description: 'The manifest', schema: manifest } },
  }),
  operation({
    ...recordings, method: 'get', path: '/v1/replays/{id}/chunks/{index}', operationId: 'getRecordingChunk',
    params: { ...recordingId, index: 'the chunk number, from 0, in plain digits' },
    summary: 'One chunk of frames as stored', description: 'Frames one after another, each a 4-byte big-endian length then that many bytes of JPEG.',
    responses: { 200: { description: 'The chunk', envelope: false, contentType: 'application/octet-stream', schema: bytes } },
  }),
  operation({
    ...recordings, method: 'get', path: '/v1/replays/{id}/complete', operationId: 'getRecordingSummary',
    summary: 'The end-of-session summary', description: 'For an orphaned recording the same shape computed from its manifest, with `complete: false`.',
    errors: ['not_complete'],
    responses: { 200: { description: 'The summary', schema: completeSummary } },
  }),

  operation({
    ...traces, method: 'get', path: '/v1/inspections', operationId: 'listTraces',
    summary: "The router's traces", description: 'Newest first; the last 24 hours unless `since` says otherwise (with `session_id`, whenever it started). No pages.',
    query: listTracesQuery,
    responses: { 200: { description: 'The traces', schema: traceList } },
  }),
  operation({
    ...traces, method: 'get', path: '/v1/inspections/{id}', operationId: 'getTrace', params: traceId,
    summary: 'One trace',
    responses: { 200: { description: 'The trace with `orphaned`', schema: traceDetail } },
  }),
  operation({
    ...traces, method: 'delete', path: '/v1/inspections/{id}', operationId: 'deleteTrace', role: 'admin', params: traceId,
    summary: 'Delete a trace', description: 'The row, then its events on storage.',
    responses: { 200: { description: 'Deleted', schema: z.object({ id: z.string() }) } },
  }),
  operation({
    ...traces, method: 'get', path: '/v1/inspections/{id}/events', operationId: 'getTraceEvents', params: traceId,
    summary: "A trace's events",
    description:
      'No query: every event in the envelope, streamed. `page=<n>`: page n (from 0) of 1,000 events. `download=json|gz|har`: the whole trace as a file ' +
      '(a bare JSON array, the same gzip-compressed, or an HTTP Archive 1.2), without the envelope.',
    query: eventsQuery, errors: ['trace_in_progress'],
    responses: {
      200: {
        description: 'Every event (no query) or one page (`page`); a `download` answers a file: `application/json` or `application/gzip`, with `Content-Disposition: attachment`',
        schema: z.union([z.array(traceEvent), eventsPage]),
      },
    },
  }),
];

export const sessionOps = byId(sessionOperations);
