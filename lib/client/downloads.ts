'use client';
// A session's downloads (GET /v1/sessions/:id/downloads): the files its browser saved on the local
// pool, collected by the proxy when the session ends (or, on another provider, those its trace saw). Asked for once the session is over, and again
// every few seconds for a minute after its end, while the proxy may still be storing them.
import { useQuery } from '@tanstack/react-query';
import type { listSessionDownloads } from '@/lib/downloads/read-downloads';
import { apiFetch } from './api-fetch';
import { useActiveWorkspace } from './me';
import { queryKeys } from './query-keys';

export type SessionDownloadList = Awaited<ReturnType<typeof listSessionDownloads>>;
export type SessionDownload = SessionDownloadList['items'][number];

/** How long after a session's end its list is asked for again, and how often. */
const COLLECTING_MS = 60_000;
const COLLECTING_INTERVAL_MS = 3_000;

export function useSessionDownloads(session: { id: string; state: string; endedAt: string | null }) {
  const { workspaceId } = useActiveWorkspace();
  const ended = session.state !== 'active';
  return useQuery({
    // Under the session's key: whatever refreshes the session refreshes its downloads.
    queryKey: [...queryKeys.session(workspaceId, session.id), 'downloads'] as const,
    queryFn: () => apiFetch<SessionDownloadList>(`/v1/sessions/${encodeURIComponent(session.id)}/downloads`, { workspaceId }),
    enabled: workspaceId !== null && ended,
    refetchInterval: () => (session.endedAt && Date.now() - Date.parse(session.endedAt) < COLLECTING_MS ? COLLECTING_INTERVAL_MS : false),
  });
}
