'use client';
// Recordings of the active workspace (docs/api.md, Recordings): the list (filtered by session or
// router), one recording, its manifest and summary, one chunk of frames, and what acts on them:
// export (start the MP4 encode) and delete. A recording still being written, and an encode under
// way, are asked for again every few seconds.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ExportResult } from '@/lib/recordings/export-recording';
import type { getCompleteSummary, getManifest } from '@/lib/recordings/read-frames';
import type { getRecording, listRecordings } from '@/lib/recordings/read-recordings';
import type { RecordingResource } from '@/lib/recordings/serialize';
import { apiFetch, apiFetchFile } from './api-fetch';
import { useActiveWorkspace } from './me';
import { queryKeys } from './query-keys';
import { refresh } from './refresh';

// The answers' shapes are the server functions' own (as lib/client/profiles.ts does).
export type Recording = RecordingResource;
export type RecordingList = Awaited<ReturnType<typeof listRecordings>>;
/** One recording plus `orphaned`: unfinished, and its session is over (the proxy holding it died). */
export type RecordingDetail = Awaited<ReturnType<typeof getRecording>>;
export type RecordingManifest = Awaited<ReturnType<typeof getManifest>>;
export type ManifestTarget = RecordingManifest['targets'][number];
export type ManifestFrame = RecordingManifest['frames'][number];
export type RecordingSummary = Awaited<ReturnType<typeof getCompleteSummary>>;
export type { ExportResult };

export interface RecordingFilters {
  /** Only this session's recording. */
  sessionId?: string;
  /** Only recordings of this router. */
  routerId?: string;
  /** 1–200; the API's default is 50. */
  limit?: number;
}

/** How often a recording being written, or a video being encoded, is asked for again. */
export const RECORDING_LIVE_INTERVAL_MS = 3_000;

const recordingPath = (id: string) => `/v1/replays/${encodeURIComponent(id)}`;

/** The MP4's address: `inline` for a `<video>` element (the dashboard's cookie authenticates it), else a download. */
export const recordingVideoUrl = (id: string, { inline = false }: { inline?: boolean } = {}) =>
  `${recordingPath(id)}/export/download${inline ? '?inline=1' : ''}`;
export const recordingChunkUrl = (id: string, index: number) => `${recordingPath(id)}/chunks/${index}`;

const isEncoding = (r: Recording | undefined) => r?.mp4Status === 'queued' || r?.mp4Status === 'running';
/** A session lasts at most 4 hours: an unfinished recording older than that is orphaned, not live (the list has no `orphaned`). */
const LONGEST_SESSION_MS = 4 * 3_600_000 + 60_000;
const mayBeLive = (r: Recording) => !r.complete && Date.now() - Date.parse(r.startedAt) < LONGEST_SESSION_MS;

export function useRecordings({ sessionId, routerId, limit }: RecordingFilters = {}) {
  const { workspaceId } = useActiveWorkspace();
  const params = new URLSearchParams();
  if (limit !== undefined) params.set('limit', String(limit));
  if (sessionId) params.set('session_id', sessionId);
  if (routerId) params.set('routerInstanceId', routerId);
  return useQuery({
    queryKey: queryKeys.recordings(workspaceId, 'list', { sessionId, routerId, limit }),
    queryFn: () => apiFetch<RecordingList>(`/v1/replays?${params}`, { workspaceId }),
    enabled: workspaceId !== null,
    refetchInterval: (query) => (query.state.data?.replays.some((r) => mayBeLive(r) || isEncoding(r)) ? RECORDING_LIVE_INTERVAL_MS : false),
  });
}

export function useRecording(id: string | null) {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.recordings(workspaceId, 'one', { id }),
    queryFn: () => apiFetch<RecordingDetail>(recordingPath(id!), { workspaceId }),
    enabled: workspaceId !== null && id !== null,
    refetchInterval: (query) => {
      const r = query.state.data;
      return r && ((!r.complete && !r.orphaned) || isEncoding(r)) ? RECORDING_LIVE_INTERVAL_MS : false;
    },
  });
}

/** The frames and tabs captured so far; refetched while the recording may still be written. */
export function useManifest(id: string | null) {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.recordings(workspaceId, 'manifest', { id }),
    queryFn: () => apiFetch<RecordingManifest>(`${recordingPath(id!)}/manifest`, { workspaceId }),
    enabled: workspaceId !== null && id !== null,
    refetchInterval: (query) => {
      const m = query.state.data;
      return m && !m.complete && Date.now() - Date.parse(m.startedAt) < LONGEST_SESSION_MS ? RECORDING_LIVE_INTERVAL_MS : false;
    },
  });
}

/** The end-of-session summary; the API answers 409 `not_complete` while the recording is written. */
export function useRecordingSummary(id: string | null, { enabled = true }: { enabled?: boolean } = {}) {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.recordings(workspaceId, 'summary', { id }),
    queryFn: () => apiFetch<RecordingSummary>(`${recordingPath(id!)}/complete`, { workspaceId }),
    enabled: enabled && workspaceId !== null && id !== null,
  });
}

/** One chunk's bytes: `[u32 big-endian length][JPEG]`, repeated; a frame is `frameImage(chunk, frame)`. */
export async function fetchRecordingChunk(id: string, index: number, workspaceId: string | null): Promise<Uint8Array> {
  const { blob } = await apiFetchFile(recordingChunkUrl(id, index), { workspaceId });
  return new Uint8Array(await blob.arrayBuffer());
}

/**
 * One chunk, cached. `live`: the chunk may still grow (the newest chunk of a recording being
 * written), so it is not kept as final.
 */
export function useRecordingChunk(id: string | null, index: number | null, { live = false }: { live?: boolean } = {}) {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.recordings(workspaceId, 'chunk', { id, index }),
    queryFn: () => fetchRecordingChunk(id!, index!, workspaceId),
    enabled: workspaceId !== null && id !== null && index !== null,
    staleTime: live ? 0 : Infinity,
    refetchInterval: live ? RECORDING_LIVE_INTERVAL_MS : false,
  });
}

/** A frame of a fetched chunk as a JPEG, for an `<img>` (URL.createObjectURL) or a canvas. */
export function frameImage(chunk: Uint8Array, frame: Pick<ManifestFrame, 'offset' | 'length'>): Blob {
  return new Blob([chunk.slice(frame.offset, frame.offset + frame.length)], { type: 'image/jpeg' });
}

function useRecordingMutation<I, O>(request: (workspaceId: string | null, input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  const { workspaceId } = useActiveWorkspace();
  return useMutation({
    mutationFn: (input: I) => request(workspaceId, input),
    onSuccess: () => refresh(queryClient, { queryKey: queryKeys.recordings(workspaceId) }),
  });
}

/** POST /v1/replays/:id/export: starts the MP4 encode (`running`), or says it is ready (`alreadyReady`) or under way. */
export const useExportRecording = () =>
  useRecordingMutation((workspaceId, id: string) => apiFetch<ExportResult>(`${recordingPath(id)}/export`, { method: 'POST', workspaceId }));

/** DELETE /v1/replays/:id (owner/admin): the recording, its frames and its video. */
export function useDeleteRecording() {
  const queryClient = useQueryClient();
  const { workspaceId } = useActiveWorkspace();
  return useMutation({
    mutationFn: (id: string) => apiFetch<{ id: string }>(recordingPath(id), { method: 'DELETE', workspaceId }),
    onSuccess: ({ id }) => {
      // The player of a deleted recording must not refetch itself into a 404.
      for (const part of ['one', 'manifest', 'summary'] as const) queryClient.removeQueries({ queryKey: queryKeys.recordings(workspaceId, part, { id }) });
      queryClient.removeQueries({
        queryKey: queryKeys.recordings(workspaceId, 'chunk'),
        predicate: (q) => (q.queryKey.at(-1) as { id?: string } | undefined)?.id === id,
      });
      // Sessions show `hasRecording`.
      return Promise.all([
        refresh(queryClient, { queryKey: queryKeys.recordings(workspaceId) }),
        refresh(queryClient, { queryKey: queryKeys.sessions(workspaceId) }),
      ]);
    },
  });
}
