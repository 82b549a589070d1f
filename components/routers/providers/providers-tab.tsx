'use client';
// A router's providers: what each is, what it supports, how it is ranked, and how it is doing right
// now (the proxy's live state, polled). Owners and admins add, edit, enable, test, reprobe, delete.
import { useEffect, useState } from 'react';
import { errorMessage } from '@/lib/client/api-fetch';
import { useActiveWorkspace } from '@/lib/client/me';
import { LIVE_STATUS_INTERVAL_MS, useDeleteProvider, useProviders, useRouterLiveStatus, type Provider } from '@/lib/client/providers';
import { useRouterInstance } from '@/lib/client/routers';
import { Alert } from '../../ui/alert';
import { Button } from '../../ui/button';
import { Card, CardHeader } from '../../ui/card';
import { ConfirmDialog } from '../../ui/dialog';
import { PlusIcon } from '../../ui/icons';
import { useToast } from '../../ui/toast';
import { strategyLabel } from '../strategies';
import { AddProviderDialog } from './add-provider-dialog';
import { EditProviderDialog } from './edit-provider-dialog';
import { ProvidersTable } from './providers-table';
import { useProviderActions, type Notice } from './use-provider-actions';

export function ProvidersTab({ routerId }: { routerId: string }) {
  const providers = useProviders(routerId);
  const router = useRouterInstance(routerId);
  // Nothing to report for a router without providers; polling would only mark its key as used.
  const live = useRouterLiveStatus(routerId, { enabled: (providers.data?.total ?? 0) > 0 });
  const actions = useProviderActions(routerId);
  const { canManage } = useActiveWorkspace();
  const toast = useToast();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Provider | null>(null);
  const [deleting, setDeleting] = useState<Provider | null>(null);
  useListFollowsLive(providers, live);

  return (
    <Card aria-label="Providers">
      <CardHeader
        title="Providers"
        description={router.data ? <RoutingNote strategy={router.data.strategy} /> : 'Where this router gets its browsers.'}
        actions={
          <>
            {live.data?.available && <LiveIndicator queued={live.data.queued} />}
            {canManage && (
              <Button variant="primary" size="sm" onClick={() => setAdding(true)}>
                <PlusIcon />
                Add provider
              </Button>
            )}
          </>
        }
      />
      <Notices notice={actions.notice} onDismiss={actions.dismiss} live={live} />
      <ProvidersTable
        providers={providers}
        liveById={new Map((live.data?.providers ?? []).map((p) => [p.id, p]))}
        available={live.data?.available}
        canManage={canManage}
        actions={actions}
        onAdd={() => setAdding(true)}
        onEdit={setEditing}
        onDelete={setDeleting}
      />
      {providers.data && providers.data.total > providers.data.items.length && (
        <p className="border-t border-zinc-100 px-5 py-3 text-[13px] text-zinc-500">
          Showing the first {providers.data.items.length} of {providers.data.total} providers.
        </p>
      )}

      <AddProviderDialog routerId={routerId} open={adding} onClose={() => setAdding(false)} onAdded={(p) => toast(`Added ${p.name}`)} />
      <EditProviderDialog routerId={routerId} provider={editing} onClose={() => setEditing(null)} />
      <DeleteProviderDialog routerId={routerId} provider={deleting} onClose={() => setDeleting(null)} />
    </Card>
  );
}

function RoutingNote({ strategy }: { strategy: Parameters<typeof strategyLabel>[0] }) {
  return (
    <>
      New sessions go to them by <span className="font-medium text-zinc-700">{strategyLabel(strategy).toLowerCase()}</span>, with failover in that order. Live
      state comes from the proxy every {LIVE_STATUS_INTERVAL_MS / 1000} s.
    </>
  );
}

function DeleteProviderDialog({ routerId, provider, onClose }: { routerId: string; provider: Provider | null; onClose: () => void }) {
  const remove = useDeleteProvider(routerId);
  const toast = useToast();
  return (
    <ConfirmDialog
      open={provider !== null}
      onClose={onClose}
      title={`Delete ${provider?.name ?? ''}?`}
      description="New sessions stop going to it at once. Sessions running on it continue until they end. Its saved address or key is deleted."
      confirmLabel="Delete provider"
      onConfirm={async () => {
        if (provider) await remove.mutateAsync(provider.slug);
      }}
      onDone={() => toast('Provider deleted')}
    />
  );
}

/** The proxy knows a provider this list does not (added elsewhere: the API, another admin): reload the list. */
function useListFollowsLive(providers: ReturnType<typeof useProviders>, live: ReturnType<typeof useRouterLiveStatus>): void {
  const listed = new Set(providers.data?.items.map((p) => p.id));
  const unknownLive = providers.data !== undefined && (live.data?.providers ?? []).some((p) => !listed.has(p.id));
  const { isFetching: listFetching, refetch: refetchList } = providers;
  useEffect(() => {
    if (unknownLive && !listFetching) void refetchList();
  }, [unknownLive, listFetching, refetchList, live.dataUpdatedAt]);
}

function LiveIndicator({ queued }: { queued: number }) {
  return (
    <span className="flex items-center gap-1.5 text-[13px] text-zinc-500" data-testid="live-indicator">
      <span className="relative flex size-2">
        <span className="absolute inline-flex size-full animate-ping rounded-full bg-emerald-400 opacity-60" />
        <span className="relative inline-flex size-2 rounded-full bg-emerald-500" />
      </span>
      Live{queued > 0 ? ` · ${queued} queued` : ''}
    </span>
  );
}

/** An action's failure, and why the live state is missing. */
function Notices({ notice, onDismiss, live }: { notice: Notice; onDismiss: () => void; live: ReturnType<typeof useRouterLiveStatus> }) {
  const unavailable = live.data && !live.data.available ? live.data.reason : null;
  if (!notice && unavailable === null && !live.error) return null;
  return (
    <div className="space-y-2 border-b border-zinc-100 px-5 py-3">
      {notice && (
        <Alert
          tone={notice.tone}
          title={notice.title}
          action={
            <Button size="sm" variant="ghost" onClick={onDismiss}>
              Dismiss
            </Button>
          }
        >
          {notice.body}
        </Alert>
      )}
      {unavailable !== null && (
        <Alert tone="warning" title="Live state unavailable">
          {unavailable.charAt(0).toUpperCase() + unavailable.slice(1)}.
        </Alert>
      )}
      {live.error && !live.data && (
        <Alert tone="warning" title="Live state unavailable">
          {errorMessage(live.error)}
        </Alert>
      )}
    </div>
  );
}
