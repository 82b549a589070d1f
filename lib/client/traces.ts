'use client';
// Traces of a router (docs/api.md, Traces): the list, one trace, its events page by page, and
// delete. Traces are router-scoped: every call names its router (X-Router-Id, or routerInstanceId
// in a download link's query). A trace still being written is asked for again every few seconds;
// its events answer 409 `trace_in_progress` until the session ends, and are asked for again then.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import type { TraceEvent } from '@/lib/traces/format';
import type { getTrace, listTraces } from '@/lib/traces/read-traces';
import type { TraceResource } from '@/lib/traces/serialize';
import { apiFetch, isApiError } from './api-fetch';
import { useActiveWorkspace, useMe } from './me';
import { queryKeys } from './query-keys';
import { refresh } from './refresh';
import { useRouters } from './routers';

export type Trace = TraceResource;
export type TraceList = Awaited<ReturnType<typeof listTraces>>;
/** One trace plus `orphaned`: unfinished, and its session is over (the proxy holding it died). */
export type TraceDetail = Awaited<ReturnType<typeof getTrace>>;
export interface EventsPage {
  events: TraceEvent[];
  page: number;
  pages: number;
  eventCount: number;
}
export type DownloadFormat = 'json' | 'gz' | 'har';

/** Traces are kept this long; the list asks for all of them (the API's default is the last day). */
export const TRACE_RETENTION_MS = 60 * 86_400_000;
/** How often a trace being written is asked for again (the events' Retry-After is 10 s). */
export const TRACE_LIVE_INTERVAL_MS = 5_000;
const IN_PROGRESS_RETRY_MS = 10_000;
/** The viewer loads at most this many pages of 1,000 events; the downloads have the whole trace. */
export const VIEWER_MAX_PAGES = 20;
/** A session lasts at most 4 hours: an unfinished trace older than that is orphaned (the list has no `orphaned`). */
const LONGEST_SESSION_MS = 4 * 3_600_000 + 60_000;

export type TraceState = 'complete' | 'writing' | 'orphaned';

export function traceState(t: Pick<Trace, 'complete' | 'startedAt'> & { orphaned?: boolean }, now = Date.now()): TraceState {
  if (t.complete) return 'complete';
  const orphaned = t.orphaned ?? now - Date.parse(t.startedAt) > LONGEST_SESSION_MS;
  return orphaned ? 'orphaned' : 'writing';
}

// Under the workspace's prefix, like every workspace-scoped key (lib/client/query-keys.ts).
const traceKey = (workspaceId: string | null, part?: 'list' | 'one' | 'events' | 'session', params?: object) =>
  [...queryKeys.workspace(workspaceId), 'traces', ...(part ? [part] : []), ...(params ? [params] : [])] as const;

const tracePath = (id: string) => `/v1/inspections/${encodeURIComponent(id)}`;

/** The file's address (the dashboard's cookie authenticates it; the router goes in the query). */
export function traceDownloadUrl(id: string, format: DownloadFormat, routerId: string | null): string {
  const params = new URLSearchParams({ download: format });
  if (routerId) params.set('routerInstanceId', routerId);
  return `${tracePath(id)}/events?${params}`;
}

/** The viewer's address; `router` keeps the trace's router when it is not the active one. */
export const traceHref = (id: string, routerId?: string | null) =>
  `/traces/${encodeURIComponent(id)}${routerId ? `?router=${encodeURIComponent(routerId)}` : ''}`;

/** The router the dashboard works on (GET /v1/me), which router-scoped calls default to. */
export function useActiveRouterId(): string | null {
  return useMe().data?.activeRouterInstanceId ?? null;
}

export function useTraces({ routerId, limit }: { routerId: string | null; limit: number }) {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: traceKey(workspaceId, 'list', { routerId, limit }),
    queryFn: () => {
      // Rounded to the minute: every refetch within it asks the same thing.
      const since = Math.floor((Date.now() - TRACE_RETENTION_MS) / 60_000) * 60_000;
      return apiFetch<TraceList>(`/v1/inspections?limit=${limit}&since=${since}`, { workspaceId, routerId });
    },
    enabled: workspaceId !== null && routerId !== null,
    refetchInterval: (query) => (query.state.data?.inspections.some((t) => traceState(t) === 'writing') ? TRACE_LIVE_INTERVAL_MS : false),
  });
}

export function useTrace(id: string, routerId: string | null) {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: traceKey(workspaceId, 'one', { id, routerId }),
    queryFn: () => apiFetch<TraceDetail>(tracePath(id), { workspaceId, routerId }),
    enabled: workspaceId !== null && routerId !== null,
    refetchInterval: (query) => (query.state.data && traceState(query.state.data) === 'writing' ? TRACE_LIVE_INTERVAL_MS : false),
  });
}

/**
 * A session's trace and the router it is on. The session does not name its router, so the
 * routers are asked in turn, the active one first (a workspace has a handful).
 */
export function useSessionTrace(sessionId: string, { enabled = true }: { enabled?: boolean } = {}) {
  const { workspaceId } = useActiveWorkspace();
  const activeRouterId = useActiveRouterId();
  const routers = useRouters();
  const order = useMemo(() => {
    const ids = routers.data?.map((r) => r.id) ?? [];
    return activeRouterId && ids.includes(activeRouterId) ? [activeRouterId, ...ids.filter((id) => id !== activeRouterId)] : ids;
  }, [routers.data, activeRouterId]);
  return useQuery({
    queryKey: traceKey(workspaceId, 'session', { sessionId, order }),
    queryFn: async () => {
      for (const routerId of order) {
        const list = await apiFetch<TraceList>(`/v1/inspections?session_id=${encodeURIComponent(sessionId)}&limit=1`, { workspaceId, routerId });
        if (list.inspections[0]) return { trace: list.inspections[0], routerId };
      }
      return null;
    },
    enabled: enabled && workspaceId !== null && order.length > 0,
    refetchInterval: (query) => (query.state.data && traceState(query.state.data.trace) === 'writing' ? TRACE_LIVE_INTERVAL_MS : false),
  });
}

/**
 * The trace's events, page 0 first and then the rest in the background, up to `maxPages` pages.
 * Not asked for while the trace is being written (`ready` false); a 409 `trace_in_progress` that
 * comes anyway is asked again after the API's Retry-After.
 */
export function useTraceEvents(id: string, routerId: string | null, { ready, maxPages = VIEWER_MAX_PAGES }: { ready: boolean; maxPages?: number }) {
  const { workspaceId } = useActiveWorkspace();
  const query = useInfiniteQuery({
    queryKey: traceKey(workspaceId, 'events', { id, routerId, maxPages }),
    queryFn: ({ pageParam, signal }) => apiFetch<EventsPage>(`${tracePath(id)}/events?page=${pageParam}`, { workspaceId, routerId, signal }),
    initialPageParam: 0,
    getNextPageParam: (last) => (last.page + 1 < Math.min(last.pages, maxPages) ? last.page + 1 : undefined),
    enabled: ready && workspaceId !== null && routerId !== null,
    // A complete trace never changes.
    staleTime: Infinity,
    retry: (count, error) => !isApiError(error, 'trace_in_progress') && !isApiError(error, 'not_found') && count < 2,
    refetchInterval: (q) => (isApiError(q.state.error, 'trace_in_progress') ? IN_PROGRESS_RETRY_MS : false),
  });
  const { hasNextPage, isFetchingNextPage, fetchNextPage, isError } = query;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !isError) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, isError, fetchNextPage]);

  const pages = query.data?.pages;
  const events = useMemo(() => pages?.flatMap((p) => p.events) ?? [], [pages]);
  const first = pages?.[0];
  return {
    query,
    events,
    /** Every event the trace holds (the figure of its pages, not of what is loaded). */
    eventCount: first?.eventCount ?? 0,
    loadedPages: pages?.length ?? 0,
    totalPages: first?.pages ?? 0,
    /** More pages are coming in the background. */
    loadingMore: Boolean(hasNextPage) || isFetchingNextPage,
    /** The trace has more pages than the viewer loads. */
    capped: first ? first.pages > maxPages : false,
    inProgress: isApiError(query.error, 'trace_in_progress'),
  };
}

/** DELETE /v1/inspections/:id (owner/admin): the trace and its events. */
export function useDeleteTrace() {
  const queryClient = useQueryClient();
  const { workspaceId } = useActiveWorkspace();
  return useMutation({
    mutationFn: ({ id, routerId }: { id: string; routerId: string | null }) =>
      apiFetch<{ id: string }>(tracePath(id), { method: 'DELETE', workspaceId, routerId }),
    onSuccess: ({ id }) => {
      // The viewer of a deleted trace must not refetch itself into a 404.
      queryClient.removeQueries({ queryKey: traceKey(workspaceId), predicate: (q) => (q.queryKey.at(-1) as { id?: string } | undefined)?.id === id });
      // Sessions show `hasReplay`.
      return Promise.all([refresh(queryClient, { queryKey: traceKey(workspaceId) }), refresh(queryClient, { queryKey: queryKeys.sessions(workspaceId) })]);
    },
  });
}
