'use client';
// Session history of the active workspace (GET /v1/sessions with the API's filters), one session,
// and the control-plane close. Lists that show active sessions refetch every few seconds.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { closeSession, getSession, listSessions } from '@/lib/sessions/sessions';
import { apiFetch } from './api-fetch';
import { useActiveWorkspace } from './me';
import { queryKeys } from './query-keys';
import { refresh } from './refresh';

export type SessionList = Awaited<ReturnType<typeof listSessions>>;
export type Session = SessionList['items'][number];
export type SessionDetail = Awaited<ReturnType<typeof getSession>>;
export type CloseResult = Awaited<ReturnType<typeof closeSession>>;

export const SESSION_STATES = ['active', 'closed', 'errored'] as const;
export const SESSION_KINDS = ['route', 'agent'] as const;

export interface SessionFilters {
  page: number;
  pageSize: number;
  state?: (typeof SESSION_STATES)[number];
  kind?: (typeof SESSION_KINDS)[number];
  routerInstanceId?: string;
  /** A provider slug: the API reads it on the request's router, so it needs `routerInstanceId`. */
  provider?: string;
  /** Unix ms; the API defaults to 30 days ago and goes back at most 180 days. */
  since?: number;
}

/** How often lists and details refetch while a session on them is active. */
export const LIVE_INTERVAL_MS = 3_000;
const IDLE_FIRST_PAGE_INTERVAL_MS = 15_000;

function sessionsQuery(filters: Partial<SessionFilters>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value !== undefined && value !== '') params.set(name, String(value));
  return params.toString();
}

const listSessionsPage = (filters: Partial<SessionFilters>, workspaceId: string | null) =>
  apiFetch<SessionList>(`/v1/sessions?${sessionsQuery(filters)}`, { workspaceId, routerId: filters.routerInstanceId });

export function useSessions(filters: SessionFilters) {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.sessionList(workspaceId, filters),
    queryFn: () => listSessionsPage(filters, workspaceId),
    enabled: workspaceId !== null,
    placeholderData: keepPreviousData,
    // Live data: opening the page always asks again rather than showing a minute-old list first.
    staleTime: 0,
    // Active rows change every second; new sessions appear on the first page.
    refetchInterval: (query) =>
      query.state.data?.items.some((s) => s.state === 'active') ? LIVE_INTERVAL_MS : filters.page === 1 ? IDLE_FIRST_PAGE_INTERVAL_MS : false,
  });
}

export function useSession(id: string | null) {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.session(workspaceId, id ?? ''),
    queryFn: () => apiFetch<SessionDetail>(`/v1/sessions/${encodeURIComponent(id!)}`, { workspaceId }),
    enabled: workspaceId !== null && id !== null,
    refetchInterval: (query) => (query.state.data?.state === 'active' ? LIVE_INTERVAL_MS : false),
  });
}

export function useCloseSession() {
  const queryClient = useQueryClient();
  const { workspaceId } = useActiveWorkspace();
  return useMutation({
    mutationFn: (id: string) => apiFetch<CloseResult>(`/v1/sessions/${encodeURIComponent(id)}/close`, { method: 'POST', workspaceId }),
    onSuccess: () => refresh(queryClient, { queryKey: queryKeys.sessions(workspaceId) }),
  });
}

export interface DayCount {
  /** YYYY-MM-DD, local time. */
  day: string;
  ok: number;
  errored: number;
}

const DAY_MS = 86_400_000;
/** The chart reads at most this many pages of 100; beyond that it says it is partial. */
const PER_DAY_MAX_PAGES = 5;

export const localDay = (date: Date) => `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/**
 * Sessions started per day over the last `days` days, counted from the list endpoint (there is no
 * aggregate endpoint yet). Errored sessions are counted apart.
 */
export function useSessionsPerDay(filters: Pick<SessionFilters, 'kind' | 'routerInstanceId' | 'provider'>, days = 14) {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.sessionsPerDay(workspaceId, { ...filters, days }),
    queryFn: async () => {
      const start = new Date();
      start.setHours(0, 0, 0, 0);
      start.setTime(start.getTime() - (days - 1) * DAY_MS);
      const counts = new Map<string, DayCount>();
      for (let i = 0; i < days; i++) {
        const day = localDay(new Date(start.getTime() + i * DAY_MS + DAY_MS / 2));
        counts.set(day, { day, ok: 0, errored: 0 });
      }
      let read = 0;
      let total = 0;
      for (let page = 1; page <= PER_DAY_MAX_PAGES; page++) {
        const list = await listSessionsPage({ ...filters, since: start.getTime(), page, pageSize: 100 }, workspaceId);
        total = list.total;
        for (const session of list.items) {
          const count = counts.get(localDay(new Date(session.startedAt)));
          if (count) count[session.state === 'errored' ? 'errored' : 'ok'] += 1;
        }
        read += list.items.length;
        if (read >= total || list.items.length === 0) break;
      }
      return { days: [...counts.values()], total, read, partial: read < total };
    },
    enabled: workspaceId !== null,
    staleTime: 0,
    refetchInterval: 30_000,
  });
}
