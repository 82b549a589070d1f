'use client';
// The overview's figures (GET /v1/overview): the dashboard's first page, and the per-router
// data-API counts the router pages show.
import { useQuery } from '@tanstack/react-query';
import type { readOverview } from '@/lib/overview/read-overview';
import { apiFetch } from './api-fetch';
import { useActiveWorkspace } from './me';
import { queryKeys } from './query-keys';

export type Overview = Awaited<ReturnType<typeof readOverview>>;
export type OverviewDay = Overview['series'][number];
export type OverviewRouter = Overview['routers'][number];
export type ChecklistItemId = Overview['checklist']['items'][number]['id'];

export const OVERVIEW_DAYS = 30;
/** Active sessions and the latest ones change while the page is open. */
const OVERVIEW_INTERVAL_MS = 15_000;

/** The overview over the last `days` days; `poll` refreshes it while the page showing it is open. */
export function useOverview({ days = OVERVIEW_DAYS, poll = false }: { days?: number; poll?: boolean } = {}) {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.overview(workspaceId, { days }),
    queryFn: () => apiFetch<Overview>(`/v1/overview?days=${days}`, { workspaceId }),
    enabled: workspaceId !== null,
    // Opening the page asks again: the checklist follows what was just done elsewhere.
    staleTime: 0,
    refetchInterval: poll ? OVERVIEW_INTERVAL_MS : false,
  });
}
