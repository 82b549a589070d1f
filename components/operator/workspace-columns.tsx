'use client';
// The operator's workspace table (components/operator/workspaces-page.tsx): its columns, a row's
// state badges, and the buttons that ask for a grant, an enterprise mark or a suspension.
import { type AdminWorkspace } from '@/lib/client/admin';
import { accountStates } from '../billing/labels';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { type Column } from '../ui/data-table';
import { Money } from '../ui/money';
import { Time } from '../ui/time';

/** A change a row's button asks for; the page confirms it in a dialog first. */
export type WorkspaceAction = { kind: 'grant' | 'enterprise' | 'suspend'; workspace: AdminWorkspace };

/** The table's columns; a row's buttons open `onAction`'s confirmation. */
export function workspaceColumns(onAction: (action: WorkspaceAction) => void): Column<AdminWorkspace>[] {
  return [
    {
      key: 'name',
      header: 'Workspace',
      cell: (w) => (
        <div className="min-w-0">
          <div className="font-medium text-zinc-900">{w.name}</div>
          <div className="font-mono text-[12px] text-zinc-500">{w.slug}</div>
        </div>
      ),
    },
    {
      key: 'owner',
      header: 'Owner',
      className: 'hidden md:table-cell',
      cell: (w) => (w.owner ? <span title={w.owner.name}>{w.owner.email}</span> : <span className="text-zinc-400">—</span>),
    },
    {
      key: 'balance',
      header: 'Balance',
      className: 'text-right',
      cell: (w) => <Money millicents={w.balanceMillicents} className="font-medium text-zinc-900" />,
    },
    { key: 'state', header: 'State', cell: (w) => <WorkspaceStateBadges workspace={w} /> },
    { key: 'created', header: 'Created', className: 'hidden lg:table-cell', cell: (w) => <Time value={w.createdAt} /> },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'text-right',
      cell: (w) => <WorkspaceActionButtons workspace={w} onAction={onAction} />,
    },
  ];
}

/** The workspace's account state, and whether it is suspended or being deleted. */
function WorkspaceStateBadges({ workspace: w }: { workspace: AdminWorkspace }) {
  return (
    <span className="flex flex-wrap gap-1.5">
      <Badge tone={accountStates[w.accountState].tone}>{accountStates[w.accountState].label}</Badge>
      {w.suspended && <Badge tone="danger">Suspended</Badge>}
      {w.deletionRequestedAt && <Badge tone="warning">Deleting</Badge>}
    </span>
  );
}

/** A row's buttons: grant credits, make or end enterprise, suspend or lift the suspension. */
function WorkspaceActionButtons({ workspace: w, onAction }: { workspace: AdminWorkspace; onAction: (action: WorkspaceAction) => void }) {
  return (
    <div className="flex justify-end gap-1">
      <Button size="sm" variant="ghost" onClick={() => onAction({ kind: 'grant', workspace: w })} aria-label={`Grant credits to ${w.name}`}>
        Grant credits
      </Button>
      <Button
        size="sm"
        variant="ghost"
        onClick={() => onAction({ kind: 'enterprise', workspace: w })}
        aria-label={`${w.enterprise ? 'End enterprise for' : 'Make enterprise:'} ${w.name}`}
      >
        {w.enterprise ? 'End enterprise' : 'Make enterprise'}
      </Button>
      <Button
        size="sm"
        variant={w.suspended ? 'ghost' : 'danger-ghost'}
        onClick={() => onAction({ kind: 'suspend', workspace: w })}
        aria-label={`${w.suspended ? 'Lift suspension of' : 'Suspend'} ${w.name}`}
      >
        {w.suspended ? 'Unsuspend' : 'Suspend'}
      </Button>
    </div>
  );
}
