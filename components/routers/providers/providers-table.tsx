'use client';
// The providers of a router as a table (providers-tab.tsx holds it): what each is, what it supports,
// how it is ranked, its live state, its enable switch, and for owners and admins a menu of actions.
import type { UseQueryResult } from '@tanstack/react-query';
import type { LiveProvider, Provider } from '@/lib/client/providers';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { DataTable, type Column } from '../../ui/data-table';
import { EmptyState } from '../../ui/empty-state';
import { MoreHorizontalIcon, PencilIcon, PlusIcon, RefreshIcon, ServerIcon, TrashIcon, ZapIcon } from '../../ui/icons';
import { Menu, MenuItem, MenuSeparator } from '../../ui/menu';
import { Switch } from '../../ui/switch';
import { CapabilityBadges } from './capability-badges';
import { adapters } from './key-form';
import { LiveState } from './live-state';
import type { ProviderActions } from './use-provider-actions';

interface TableProps {
  providers: UseQueryResult<{ items: Provider[]; total: number }>;
  liveById: Map<string, LiveProvider>;
  /** The proxy's live state could be read. */
  available: boolean | undefined;
  canManage: boolean;
  actions: ProviderActions;
  onAdd: () => void;
  onEdit: (provider: Provider) => void;
  onDelete: (provider: Provider) => void;
}

/** What a provider is and how it is ranked: the same for every viewer. */
const DESCRIPTION_COLUMNS: Column<Provider>[] = [
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
];

export function ProvidersTable({ providers, liveById, available, canManage, actions, onAdd, onEdit, onDelete }: TableProps) {
  return (
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
              <Button size="sm" onClick={onAdd}>
                <PlusIcon />
                Add provider
              </Button>
            )
          }
        />
      }
      columns={[
        ...DESCRIPTION_COLUMNS,
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
              pending={actions.toggling(p.slug)}
              onChange={(enabled) => actions.toggle(p, enabled)}
            />
          ),
        },
        ...(canManage
          ? [
              {
                key: 'actions',
                header: <span className="sr-only">Actions</span>,
                className: 'w-12 text-right',
                cell: (p: Provider) => <ProviderMenu provider={p} actions={actions} onEdit={onEdit} onDelete={onDelete} />,
              },
            ]
          : []),
      ]}
    />
  );
}

interface ProviderMenuProps {
  provider: Provider;
  actions: ProviderActions;
  onEdit: (provider: Provider) => void;
  onDelete: (provider: Provider) => void;
}

/** A provider's actions menu: its trigger spins while an action on the provider runs. */
function ProviderMenu({ provider: p, actions, onEdit, onDelete }: ProviderMenuProps) {
  return (
    <Menu
      placement="bottom-end"
      triggerLabel={`Actions for ${p.name}`}
      triggerClassName="inline-flex size-8 items-center justify-center rounded-md text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800"
      trigger={() => (actions.busy(p.slug) ? <RefreshIcon className="size-4 animate-spin" /> : <MoreHorizontalIcon className="size-4" />)}
      panelClassName="w-52"
    >
      {(close) => <ProviderMenuItems provider={p} actions={actions} onEdit={onEdit} onDelete={onDelete} close={close} />}
    </Menu>
  );
}

/** The menu's items, each closing the menu before it acts; a key provider has no reprobe. */
function ProviderMenuItems({ provider: p, actions, onEdit, onDelete, close }: ProviderMenuProps & { close: () => void }) {
  return (
    <>
      <MenuItem
        onSelect={() => {
          close();
          onEdit(p);
        }}
      >
        <PencilIcon />
        Edit
      </MenuItem>
      <MenuItem
        onSelect={() => {
          close();
          actions.test(p);
        }}
      >
        <ZapIcon />
        {p.adapterKind ? 'Check key' : 'Test connection'}
      </MenuItem>
      {!p.adapterKind && (
        <MenuItem
          onSelect={() => {
            close();
            actions.reprobe(p);
          }}
        >
          <RefreshIcon />
          Reprobe capabilities
        </MenuItem>
      )}
      <MenuSeparator />
      <MenuItem
        tone="danger"
        onSelect={() => {
          close();
          onDelete(p);
        }}
      >
        <TrashIcon />
        Delete
      </MenuItem>
    </>
  );
}
