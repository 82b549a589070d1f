// Traces (docs/api.md: Traces; docs/traces.md).
// Each entry declares one endpoint: its route file serves it through endpoint() (lib/api/endpoint.ts)
// and the OpenAPI document describes it (lib/openapi/document.ts).
import { z } from 'zod';
import { byId, operation } from '../openapi/operation';
import { eventsPage, traceDetail, traceEvent, traceList } from '../openapi/resources/traces';
import { eventsQuery, listTracesQuery } from './schemas';

const TRACES = 'Traces';
const traceId = { id: 'the trace id' };
const traces = { tag: TRACES, auth: 'account', scope: 'router', counted: true } as const;

export const traceEndpoints = byId([
  operation({
    ...traces,
    method: 'get',
    path: '/v1/inspections',
    operationId: 'listTraces',
    summary: "The router's traces",
    description: 'Newest first; the last 24 hours unless `since` says otherwise (with `session_id`, whenever it started). No pages.',
    query: listTracesQuery,
    responses: { 200: { description: 'The traces', schema: traceList } },
  }),
  operation({
    ...traces,
    method: 'get',
    path: '/v1/inspections/{id}',
    operationId: 'getTrace',
    params: traceId,
    summary: 'One trace',
    responses: { 200: { description: 'The trace with `orphaned`', schema: traceDetail } },
  }),
  operation({
    ...traces,
    method: 'delete',
    path: '/v1/inspections/{id}',
    operationId: 'deleteTrace',
    role: 'admin',
    params: traceId,
    summary: 'Delete a trace',
    description: 'The row, then its events on storage.',
    responses: { 200: { description: 'Deleted', schema: z.object({ id: z.string() }) } },
  }),
  operation({
    ...traces,
    method: 'get',
    path: '/v1/inspections/{id}/events',
    operationId: 'getTraceEvents',
    params: traceId,
    summary: "A trace's events",
    description:
      'No query: every event in the envelope, streamed. `page=<n>`: page n (from 0) of 1,000 events. `download=json|gz|har`: the whole trace as a file ' +
      '(a bare JSON array, the same gzip-compressed, or an HTTP Archive 1.2), without the envelope.',
    query: eventsQuery,
    errors: ['trace_in_progress'],
    responses: {
      200: {
        description:
          'Every event (no query) or one page (`page`); a `download` answers a file: `application/json` or `application/gzip`, with `Content-Disposition: attachment`',
        schema: z.union([z.array(traceEvent), eventsPage]),
      },
    },
  }),
]);
