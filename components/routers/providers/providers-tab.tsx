'use client';
// A router's providers: what each is, what it supports, how it is ranked, and how it is doing right
// now (the proxy's live state, polled). Owners and admins add, edit, enable, test, reprobe, delete.
import { useEffect, useState, type ReactNode } from 'react';
import { errorMessage } from '@/lib/client/api-fetch';
import { useActiveWorkspace } from '@/lib/client/me';
import {
  LIVE_STATUS_INTERVAL_MS, useDeleteProvider, useProviders, useReprobeProvider, useRouterLiveStatus, useTestProvider, useUpdateProvider, type Provider,
} from '@/lib/client/providers';
import { useRouterInstance } from '@/lib/client/routers';
import { Alert } from '../../ui/alert';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Card, CardHeader } from '../../ui/card';
import { DataTable } from '../../ui/data-table';
import { ConfirmDialog } from '../../ui/dialog';
import { EmptyState } from '../../ui/empty-state';
import { MoreHorizontalIcon, PencilIcon, PlusIcon, RefreshIcon, ServerIcon, TrashIcon, ZapIcon } from '../../ui/icons';
import { Menu, MenuItem, MenuSeparator } from '../../ui/menu';
import { Switch } from '../../ui/switch';
import { useToast } from '../../ui/toast';
import { strategyLabel } from '../strategies';
import { AddProviderDialog } from './add-provider-dialog';
import { CapabilityBadges } from './capability-badges';
import { EditProviderDialog } from './edit-provider-dialog';
import { adapters } from './key-form';
import { LiveState } from './live-state';

type Notice = { tone: 'danger' | 'success'; title: string; body: ReactNode } | null;

export function ProvidersTab({ routerId }: { routerId: string }) {
  const providers = useProviders(routerId);
  const router = useRouterInstance(routerId);
  // Nothing to report for a router without providers; polling would only mark its key as used.
  const live = useRouterLiveStatus(routerId, { enabled: (providers.data?.total ?? 0) > 0 });
  const update = useUpdateProvider(routerId);
  const test = useTestProvider(routerId);
  const reprobe = useReprobeProvider(routerId);
  const remove = useDeleteProvider(routerId);
  const { canManage } = useActiveWorkspace();
  const toast = useToast();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Provider | null>(null);
  const [deleting, setDeleting] = useState<Provider | null>(null);
  const [notice, setNotice] = useState<Notice>(null);

  const liveById = new Map((live.data?.providers ?? []).map((p) => [p.id, p]));
  // The proxy knows a provider this list does not (added elsewhere: the API, another admin): reload the list.
  const listed = new Set(providers.data?.items.map((p) => p.id));
  const unknownLive = providers.data !== undefined && (live.data?.providers ?? []).some((p) => !listed.has(p.id));
  const { isFetching: listFetching, refetch: refetchList } = providers;
  useEffect(() => {
    if (unknownLive && !listFetching) void refetchList();
  }, [unknownLive, listFetching, refetchList, live.dataUpdatedAt]);
  const available = live.data?.available;
  const busy = (slug: string) => (test.isPending && test.variables === slug) || (reprobe.isPending && reprobe.variables === slug);

  const toggle = (provider: Provider, enabled: boolean) => {
    setNotice(null);
    update.mutate(
      { slug: provider.slug, enabled },
      {
        onSuccess: () => toast(`${provider.name} ${enabled ? 'enabled' : 'disabled'}`),
        onError: (error) => setNotice({ tone: 'danger', title: `Couldn't ${enabled ? 'enable' : 'disable'} ${provider.name}`, body: errorMessage(error) }),
      },
    );
  };
  const runTest = (provider: Provider) => {
    setNotice(null);
    test.mutate(provider.slug, {
      onSuccess: (outcome) =>
        outcome.ok
          ? toast(`${provider.name} answered in ${outcome.latencyMs} ms`)
          : setNotice({ tone: 'danger', title: `${provider.name} failed its test`, body: outcome.reason }),
      onError: (error) => setNotice({ tone: 'danger', title: `Couldn't test ${provider.name}`, body: errorMessage(error) }),
    });
  };
  const runReprobe = (provider: Provider) => {
    setNotice(null);
    reprobe.mutate(provider.slug, {
      onSuccess: (probed) => toast(`Probed ${probed.name} again`),
      onError: (error) => setNotice({ tone: 'danger', title: `Couldn't probe ${provider.name}`, body: errorMessage(error) }),
    });
  };

  const addButton = canManage && (
    <Button variant="primary" size="sm" onClick={() => setAdding(true)}>
      <PlusIcon />
      Add provider
    </Button>
  );

  return (
    <Card aria-label="Providers">
      <CardHeader
        title="Providers"
        description={
          router.data ? (
            <>
              New sessions go to them by <span className="font-medium text-zinc-700">{strategyLabel(router.data.strategy).toLowerCase()}</span>, with failover in that order.
              Live state comes from the proxy every {LIVE_STATUS_INTERVAL_MS / 1000} s.
            </>
          ) : (
            'Where this router gets its browsers.'
          )
        }
        actions={
          <>
            {available && (
              <span className="flex items-center gap-1.5 text-[13px] text-zinc-500" data-testid="live-indicator">
                <span className="relative flex size-2">
                  <span className="absolute inline-flex size-full animate-ping rounded-full bg-emerald-400 opacity-60" />
                  <span className="relative inline-flex size-2 rounded-full bg-emerald-500" />
                </span>
                Live{live.data && live.data.queued > 0 ? ` · ${live.data.queued} queued` : ''}
              </span>
            )}
            {addButton}
          </>
        }
      />
      {(notice || (live.data && !live.data.available) || live.error) && (
        <div className="space-y-2 border-b border-zinc-100 px-5 py-3">
          {notice && (
            <Alert tone={notice.tone} title={notice.title} action={<Button size="sm" variant="ghost" onClick={() => setNotice(null)}>Dismiss</Button>}>
              {notice.body}
            </Alert>
          )}
          {live.data && !live.data.available && (
            <Alert tone="warning" title="Live state unavailable">
              {live.data.reason.charAt(0).toUpperCase() + live.data.reason.slice(1)}.
            </Alert>
          )}
          {live.error && !live.data && (
            <Alert tone="warning" title="Live state unavailable">
              {errorMessage(live.error)}
            </Alert>
          )}
        </div>
      )}
      <DataTable<Provider>
        label="Providers"
        query={providers}
        rows={providers.data?.items}
        rowKey={(p) => p.id}
        rowClassName={(p) => (p.enabled ? undefined : 'bg-zinc-50/60 [&_td]:text-zinc-400')}
        empty={
          <EmptyState
            icon={<ServerIcon />}
            title="No providers yet"
            description="Connections to this router are refused until it has a provider. Add a browser address (any CDP browser) or a cloud vendor key."
            action={
              canManage && (
                <Button size="sm" onClick={() => setAdding(true)}>
                  <PlusIcon />
                  Add provider
                </Button>
              )
            }
          />
        }
        columns={[
          {
            key: 'name',
            header: 'Provider',
            cell: (p) => (
              <div className="min-w-0">
                <div className="font-medium text-zinc-900">{p.name}</div>
                <code className="font-mono text-[12px] text-zinc-500">{p.slug}</code>
                {p.profile && (
                  <div className="mt-1">
                    <Badge tone="accent">profile {p.profile}</Badge>
                  </div>
                )}
              </div>
            ),
          },
          {
            key: 'address',
            header: 'Address',
            className: 'hidden xl:table-cell',
            cell: (p) =>
              p.adapterKind ? (
                <span className="flex flex-col items-start gap-1">
                  <Badge tone="accent">{adapters[p.adapterKind as keyof typeof adapters]?.label ?? p.adapterKind}</Badge>
                  <span className="text-[12px] text-zinc-500">API key</span>
                </span>
              ) : (
                <code className="block max-w-52 truncate font-mono text-[12px] text-zinc-600" title={p.url ?? undefined}>
                  {p.url}
                </code>
              ),
          },
          { key: 'capabilities', header: 'Capabilities', cell: (p) => <CapabilityBadges provider={p} /> },
          { key: 'priority', header: 'Priority', className: 'text-right tabular-nums', cell: (p) => <span data-testid={`priority-${p.slug}`}>{p.priority}</span> },
          { key: 'weight', header: 'Weight', className: 'text-right tabular-nums', cell: (p) => p.weight },
          {
            key: 'max',
            header: 'Max',
            className: 'text-right tabular-nums',
            cell: (p) =>
              p.maxConcurrent ?? (
                <span className="text-zinc-400" title={p.capabilities.advertisedMaxConcurrent ? 'The capacity the provider advertises' : 'No limit on our side'}>
                  {p.capabilities.advertisedMaxConcurrent ? `auto ${p.capabilities.advertisedMaxConcurrent}` : '—'}
                </span>
              ),
          },
          { key: 'live', header: 'Live', cell: (p) => <LiveState provider={p} live={liveById.get(p.id)} available={available} /> },
          {
            key: 'enabled',
            header: 'Enabled',
            cell: (p) => (
              <Switch
                size="sm"
                label={`Enable ${p.name}`}
                checked={p.enabled}
                disabled={!canManage}
                pending={update.isPending && update.variables?.slug === p.slug && update.variables.enabled !== undefined}
                onChange={(enabled) => toggle(p, enabled)}
              />
            ),
          },
          ...(canManage
            ? [
                {
                  key: 'actions',
                  header: <span className="sr-only">Actions</span>,
                  className: 'w-12 text-right',
                  cell: (p: Provider) => (
                    <Menu
                      placement="bottom-end"
                      triggerLabel={`Actions for ${p.name}`}
                      triggerClassName="inline-flex size-8 items-center justify-center rounded-md text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800"
                      trigger={() => (busy(p.slug) ? <RefreshIcon className="size-4 animate-spin" /> : <MoreHorizontalIcon className="size-4" />)}
                      panelClassName="w-52"
                    >
                      {(close) => (
                        <>
                          <MenuItem onSelect={() => { close(); setEditing(p); }}>
                            <PencilIcon />
                            Edit
                          </MenuItem>
                          <MenuItem onSelect={() => { close(); runTest(p); }}>
                            <ZapIcon />
                            {p.adapterKind ? 'Check key' : 'Test connection'}
                          </MenuItem>
                          {!p.adapterKind && (
                            <MenuItem onSelect={() => { close(); runReprobe(p); }}>
                              <RefreshIcon />
                              Reprobe capabilities
                            </MenuItem>
                          )}
                          <MenuSeparator />
                          <MenuItem tone="danger" onSelect={() => { close(); setDeleting(p); }}>
                            <TrashIcon />
                            Delete
                          </MenuItem>
                        </>
                      )}
                    </Menu>
                  ),
                },
              ]
            : []),
        ]}
      />
      {providers.data && providers.data.total > providers.data.items.length && (
        <p className="border-t border-zinc-100 px-5 py-3 text-[13px] text-zinc-500">
          Showing the first {providers.data.items.length} of {providers.data.total} providers.
        </p>
      )}

      <AddProviderDialog routerId={routerId} open={adding} onClose={() => setAdding(false)} onAdded={(p) => toast(`Added ${p.name}`)} />
      <EditProviderDialog routerId={routerId} provider={editing} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        title={`Delete ${deleting?.name ?? ''}?`}
        description="New sessions stop going to it at once. Sessions running on it continue until they end. Its saved address or key is deleted."
        confirmLabel="Delete provider"
        onConfirm={async () => {
          if (deleting) await remove.mutateAsync(deleting.slug);
        }}
        onDone={() => toast('Provider deleted')}
      />
    </Card>
  );
}
