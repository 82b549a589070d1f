'use client';
// Profiles of the active workspace (docs/api.md, Profiles): the paged list, every slug (for the
// pickers of the Connect tab and the agent defaults), one profile with its versions, and what acts
// on them: create, import a Playwright storageState, rename, restore a version, export, delete.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { listProfiles, listProfileVersions } from '@/lib/profiles/read-profiles';
import type { CreateProfileInput, ExportFormat, ImportPlaywrightInput } from '@/lib/profiles/schemas';
import type { ProfileResource } from '@/lib/profiles/serialize';
import { apiFetch, apiFetchFile } from './api-fetch';
import { useActiveWorkspace } from './me';
import { queryKeys } from './query-keys';
import { refresh } from './refresh';

// The answers' shapes are the server functions' own (as lib/client/billing.ts does).
export type Profile = ProfileResource;
export type ProfileList = Awaited<ReturnType<typeof listProfiles>>;
export type ProfileVersion = Awaited<ReturnType<typeof listProfileVersions>>['items'][number];
export type { ExportFormat };

/** How often the list asks again while a session is saving to one of its profiles. */
const SAVING_INTERVAL_MS = 5_000;
/** The API's largest page; the pickers read every page (a workspace holds at most 500 profiles). */
const MAX_PAGE_SIZE = 100;

const profilePath = (slug: string) => `/v1/profiles/${encodeURIComponent(slug)}`;

export function useProfiles(page: number, pageSize: number) {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.profiles(workspaceId, 'list', { page, pageSize }),
    queryFn: () => apiFetch<ProfileList>(`/v1/profiles?page=${page}&pageSize=${pageSize}`, { workspaceId }),
    enabled: workspaceId !== null,
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((p) => p.saving) ? SAVING_INTERVAL_MS : false),
  });
}

/** Every profile of the workspace, slug and name, for a picker. */
export function useProfileChoices() {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.profiles(workspaceId, 'all'),
    queryFn: async () => {
      const all: Profile[] = [];
      for (let page = 1; ; page++) {
        const answer = await apiFetch<ProfileList>(`/v1/profiles?page=${page}&pageSize=${MAX_PAGE_SIZE}`, { workspaceId });
        all.push(...answer.items);
        if (answer.items.length < MAX_PAGE_SIZE || all.length >= answer.total) return all.map(({ slug, name }) => ({ slug, name }));
      }
    },
    enabled: workspaceId !== null,
  });
}

export function useProfile(slug: string) {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.profiles(workspaceId, 'one', { slug }),
    queryFn: () => apiFetch<Profile>(profilePath(slug), { workspaceId }),
    enabled: workspaceId !== null,
    refetchInterval: (query) => (query.state.data?.saving ? SAVING_INTERVAL_MS : false),
  });
}

export function useProfileVersions(slug: string) {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.profiles(workspaceId, 'versions', { slug }),
    queryFn: async () => (await apiFetch<{ items: ProfileVersion[] }>(`${profilePath(slug)}/versions`, { workspaceId })).items,
    enabled: workspaceId !== null,
  });
}

function useProfileMutation<I, O>(request: (workspaceId: string | null, input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  const { workspaceId } = useActiveWorkspace();
  return useMutation({
    mutationFn: (input: I) => request(workspaceId, input),
    // The list, the pickers, every profile and its versions live under one prefix.
    onSuccess: () => refresh(queryClient, { queryKey: queryKeys.profiles(workspaceId) }),
  });
}

export const useCreateProfile = () =>
  useProfileMutation((workspaceId, input: CreateProfileInput) => apiFetch<Profile>('/v1/profiles', { method: 'POST', body: input, workspaceId }));

export const useImportProfile = () =>
  useProfileMutation((workspaceId, input: ImportPlaywrightInput) =>
    apiFetch<Profile>('/v1/profiles/import-playwright', { method: 'POST', body: input, workspaceId }),
  );

export const useRenameProfile = () =>
  useProfileMutation((workspaceId, { slug, name }: { slug: string; name: string }) =>
    apiFetch<Profile>(profilePath(slug), { method: 'PATCH', body: { name }, workspaceId }),
  );

export const useRestoreProfileVersion = () =>
  useProfileMutation((workspaceId, { slug, version }: { slug: string; version: number }) =>
    apiFetch<Profile>(`${profilePath(slug)}/versions/${version}/restore`, { method: 'POST', workspaceId }),
  );

export function useDeleteProfile() {
  const queryClient = useQueryClient();
  const { workspaceId } = useActiveWorkspace();
  return useMutation({
    mutationFn: (slug: string) => apiFetch<{ slug: string }>(profilePath(slug), { method: 'DELETE', workspaceId }),
    onSuccess: ({ slug }) => {
      // The detail page of a deleted profile must not refetch itself into a 404.
      queryClient.removeQueries({ queryKey: queryKeys.profiles(workspaceId, 'one', { slug }) });
      queryClient.removeQueries({ queryKey: queryKeys.profiles(workspaceId, 'versions', { slug }) });
      return refresh(queryClient, { queryKey: queryKeys.profiles(workspaceId) });
    },
  });
}

/** GET /v1/profiles/:slug/export (owner/admin): the state as a file, in the format asked for. */
export function useExportProfile() {
  const { workspaceId } = useActiveWorkspace();
  return useMutation({
    mutationFn: ({ slug, format }: { slug: string; format: ExportFormat }) =>
      apiFetchFile(`${profilePath(slug)}/export?format=${format}&download=1`, { workspaceId }),
  });
}
