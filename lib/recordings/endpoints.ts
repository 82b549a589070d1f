// Recordings (docs/api.md: Recordings; docs/recordings.md).
// Each entry declares one endpoint: its route file serves it through endpoint() (lib/api/endpoint.ts)
// and the OpenAPI document describes it (lib/openapi/document.ts).
import { z } from 'zod';
import { byId, operation } from '../openapi/operation';
import { completeSummary, exportAnswer, manifest, recordingDetail, recordingList } from '../openapi/resources/sessions';
import { downloadQuery, listRecordingsQuery } from './schemas';

const RECORDINGS = 'Recordings';
const recordingId = { id: 'the recording id' };
const recordings = { tag: RECORDINGS, auth: 'account', counted: true, params: recordingId } as const;
const bytes = z.string().meta({ format: 'binary' });

export const recordingEndpoints = byId([
  operation({
    method: 'get',
    path: '/v1/replays',
    operationId: 'listRecordings',
    tag: RECORDINGS,
    auth: 'account',
    counted: true,
    summary: 'Recordings of the last 30 days',
    description: 'Newest first; no pages: narrow with the filters.',
    query: listRecordingsQuery,
    responses: { 200: { description: 'The recordings', schema: recordingList } },
  }),
  operation({
    ...recordings,
    method: 'get',
    path: '/v1/replays/{id}',
    operationId: 'getRecording',
    summary: 'One recording',
    responses: { 200: { description: 'The recording with `orphaned`', schema: recordingDetail } },
  }),
  operation({
    ...recordings,
    method: 'delete',
    path: '/v1/replays/{id}',
    operationId: 'deleteRecording',
    role: 'admin',
    summary: 'Delete a recording',
    description: 'Its frames and its video are gone at once.',
    responses: { 200: { description: 'Deleted', schema: z.object({ id: z.string() }) } },
  }),
  operation({
    ...recordings,
    method: 'post',
    path: '/v1/replays/{id}/export',
    operationId: 'exportRecording',
    summary: 'Start the MP4 encode of a recording',
    description:
      "A video already made is answered as such, and an encode under way is not asked for twice. A session's end starts the encode by itself; this is for a failed or orphaned one, or a video that went missing.",
    errors: ['not_complete'],
    responses: { 200: { description: 'Where the encode stands', schema: exportAnswer } },
  }),
  operation({
    ...recordings,
    method: 'get',
    path: '/v1/replays/{id}/export/download',
    operationId: 'downloadRecording',
    summary: 'The MP4',
    description: 'Byte ranges are served (206 with `Content-Range`); `?inline=1` for a `<video>` element. HEAD answers the same headers.',
    query: downloadQuery,
    errors: ['not_ready', 'range_not_satisfiable'],
    responses: {
      200: {
        description: 'The whole file',
        envelope: false,
        contentType: 'video/mp4',
        schema: bytes,
        headers: {
          'Accept-Ranges': { description: '`bytes`' },
          'Content-Disposition': { description: '`attachment; filename="<session id>.mp4"`, or `inline`' },
        },
      },
      206: {
        description: 'The requested range',
        envelope: false,
        contentType: 'video/mp4',
        schema: bytes,
        headers: { 'Content-Range': { description: '`bytes a-b/<size>`' } },
      },
    },
  }),
  operation({
    ...recordings,
    method: 'get',
    path: '/v1/replays/{id}/manifest',
    operationId: 'getRecordingManifest',
    summary: 'The tabs and frames captured so far',
    description: 'Works while the recording is written.',
    responses: { 200: { description: 'The manifest', schema: manifest } },
  }),
  operation({
    ...recordings,
    method: 'get',
    path: '/v1/replays/{id}/chunks/{index}',
    operationId: 'getRecordingChunk',
    params: { ...recordingId, index: 'the chunk number, from 0, in plain digits' },
    summary: 'One chunk of frames as stored',
    description: 'Frames one after another, each a 4-byte big-endian length then that many bytes of JPEG.',
    responses: { 200: { description: 'The chunk', envelope: false, contentType: 'application/octet-stream', schema: bytes } },
  }),
  operation({
    ...recordings,
    method: 'get',
    path: '/v1/replays/{id}/complete',
    operationId: 'getRecordingSummary',
    summary: 'The end-of-session summary',
    description: 'For an orphaned recording the same shape computed from its manifest, with `complete: false`.',
    errors: ['not_complete'],
    responses: { 200: { description: 'The summary', schema: completeSummary } },
  }),
]);
