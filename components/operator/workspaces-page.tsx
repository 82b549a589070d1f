'use client';
// The operator's panel over every workspace of the installation: find one (name, slug, owner's
// e-mail or id), grant it credits with a note, mark it enterprise, suspend it. Each change is
// confirmed first; grants land in the workspace's ledger as `grant` entries, and every change in
// the operator's audit log below.
import { useEffect, useId, useState } from 'react';
import { useAdminWorkspaces, useGrantCredits, useUpdateAdminWorkspace, type AdminWorkspace } from '@/lib/client/admin';
import { formatCents, parseDollars } from '@/lib/client/money';
import { fieldErrorsFromApi, type FieldErrors } from '@/lib/client/forms';
import { accountStates } from '../billing/labels';
import { OperatorActionsCard } from './actions-card';
import { PendingCheckoutsCard } from './pending-checkouts-card';
import { ErrorAlert } from '../ui/alert';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { DataTable, type Column } from '../ui/data-table';
import { ConfirmDialog, FormDialog } from '../ui/dialog';
import { EmptyState } from '../ui/empty-state';
import { BuildingIcon, RefreshIcon, SearchCodeIcon } from '../ui/icons';
import { Input, TextField } from '../ui/input';
import { Money } from '../ui/money';
import { PageHeader } from '../ui/page-header';
import { Time } from '../ui/time';
import { useToast } from '../ui/toast';

type Action = { kind: 'grant' | 'enterprise' | 'suspend'; workspace: AdminWorkspace };

export function OperatorWorkspacesPage() {
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [action, setAction] = useState<Action | null>(null);
  const workspaces = useAdminWorkspaces(q);

  useEffect(() => {
    // Searches a moment after typing stops, not on every key.
    const timer = setTimeout(() => setQ(text.trim()), 250);
    return () => clearTimeout(timer);
  }, [text]);

  const data = workspaces.data;
  return (
    <>
      <PageHeader
        eyebrow="Operator"
        title="Workspaces"
        description="Every workspace of this installation. Grant credits to a wallet, mark a workspace enterprise (100,000 API calls a day whatever its balance), or suspend it (its routers refuse new sessions and its live ones are closed)."
        actions={
          <Button onClick={() => void workspaces.refetch()} loading={workspaces.isFetching && !workspaces.isPending}>
            <RefreshIcon />
            Refresh
          </Button>
        }
      />
      <PendingCheckoutsCard />
      <Card>
        <CardHeader
          title="Find a workspace"
          description={
            data
              ? `${data.total.toLocaleString('en')} workspace${data.total === 1 ? '' : 's'}${q ? ` matching “${q}”` : ''}${data.total > data.items.length ? `, newest ${data.items.length} shown` : ''}.`
              : 'Newest first.'
          }
          actions={<WorkspaceSearch text={text} onChange={setText} />}
        />
        <DataTable<AdminWorkspace>
          label="Workspaces"
          query={workspaces}
          rows={data?.items}
          rowKey={(w) => w.id}
          empty={
            <EmptyState
              icon={<BuildingIcon />}
              title={q ? 'No workspace matches' : 'No workspaces yet'}
              description={q ? 'Search by name, slug, the owner’s e-mail or the exact id.' : undefined}
            />
          }
          columns={workspaceColumns(setAction)}
        />
      </Card>
      <div className="mt-6">
        <OperatorActionsCard />
      </div>
      {action?.kind === 'grant' && <GrantDialog workspace={action.workspace} onClose={() => setAction(null)} />}
      {action && action.kind !== 'grant' && <ChangeDialog action={action} onClose={() => setAction(null)} />}
    </>
  );
}

/** The table's columns; a row's buttons open `onAction`'s confirmation. */
function workspaceColumns(onAction: (action: Action) => void): Column<AdminWorkspace>[] {
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
    {
      key: 'state',
      header: 'State',
      cell: (w) => (
        <span className="flex flex-wrap gap-1.5">
          <Badge tone={accountStates[w.accountState].tone}>{accountStates[w.accountState].label}</Badge>
          {w.suspended && <Badge tone="danger">Suspended</Badge>}
          {w.deletionRequestedAt && <Badge tone="warning">Deleting</Badge>}
        </span>
      ),
    },
    { key: 'created', header: 'Created', className: 'hidden lg:table-cell', cell: (w) => <Time value={w.createdAt} /> },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'text-right',
      cell: (w) => (
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
      ),
    },
  ];
}

function WorkspaceSearch({ text, onChange }: { text: string; onChange: (text: string) => void }) {
  const searchId = useId();
  return (
    <div className="relative w-72">
      <label htmlFor={searchId} className="sr-only">
        Search workspaces
      </label>
      <SearchCodeIcon className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-zinc-400" />
      <Input
        id={searchId}
        type="search"
        placeholder="Name, slug, owner e-mail or id"
        value={text}
        onChange={(e) => onChange(e.target.value)}
        className="pl-8"
        autoComplete="off"
        spellCheck={false}
      />
    </div>
  );
}

function GrantDialog({ workspace, onClose }: { workspace: AdminWorkspace; onClose: () => void }) {
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const grant = useGrantCredits();
  const toast = useToast();
  const cents = parseDollars(amount);

  const submit = () => {
    if (cents === null || cents < 1) return setErrors({ amountCents: 'Enter an amount in US dollars, like 50 or 12.50' });
    setErrors({});
    grant.mutate(
      { id: workspace.id, amountCents: cents, note: note.trim() },
      {
        onSuccess: () => {
          toast(`${formatCents(cents)} granted to ${workspace.name}`);
          onClose();
        },
        onError: (error) => setErrors(fieldErrorsFromApi(error, ['amountCents', 'note']) ?? {}),
      },
    );
  };

  return (
    <FormDialog
      open
      onClose={onClose}
      title={`Grant credits to ${workspace.name}`}
      description={
        <>
          Adds money to the wallet of <span className="font-medium text-zinc-700">{workspace.slug}</span> (balance{' '}
          <Money millicents={workspace.balanceMillicents} />) as a credit grant in its ledger. No one is charged.
        </>
      }
      submitLabel={cents ? `Grant ${formatCents(cents)}` : 'Grant credits'}
      pending={grant.isPending}
      onSubmit={submit}
    >
      <TextField
        label="Amount (USD)"
        inputMode="decimal"
        autoComplete="off"
        value={amount}
        onChange={(e) => setAmount(e.target.value)}
        error={errors.amountCents}
        hint="Up to $100,000.00 in one grant."
        autoFocus
      />
      <TextField
        label="Note"
        value={note}
        onChange={(e) => setNote(e.target.value)}
        error={errors.note}
        hint="Why: kept in the ledger entry with your name."
        maxLength={500}
        autoComplete="off"
      />
      {!errors.amountCents && !errors.note && <ErrorAlert error={grant.error} />}
    </FormDialog>
  );
}

function ChangeDialog({ action, onClose }: { action: Action; onClose: () => void }) {
  const update = useUpdateAdminWorkspace();
  const toast = useToast();
  const w = action.workspace;
  const texts =
    action.kind === 'enterprise'
      ? w.enterprise
        ? {
            title: `End enterprise for ${w.name}?`,
            body: 'The workspace goes back to the free plan: its daily API cap follows its wallet again (5,000 calls at a zero balance, 100,000 above).',
            confirm: 'End enterprise',
            done: 'no longer enterprise',
            tone: 'danger' as const,
            body2: { enterprise: false },
          }
        : {
            title: `Make ${w.name} enterprise?`,
            body: 'The plan becomes enterprise: 100,000 API calls a day whatever the balance. Usage is still drawn from the wallet.',
            confirm: 'Make enterprise',
            done: 'is now enterprise',
            tone: 'primary' as const,
            body2: { enterprise: true },
          }
      : w.suspended
        ? {
            title: `Lift the suspension of ${w.name}?`,
            body: 'Its routers take sessions and data-API calls again at once.',
            confirm: 'Unsuspend',
            done: 'is no longer suspended',
            tone: 'primary' as const,
            body2: { suspended: false },
          }
        : {
            title: `Suspend ${w.name}?`,
            body: 'Its live sessions are closed now and its routers refuse new sessions and data-API calls until you lift the suspension. Its members can still sign in and see the dashboard; the wallet keeps its balance.',
            confirm: 'Suspend',
            done: 'is suspended',
            tone: 'danger' as const,
            body2: { suspended: true },
          };
  return (
    <ConfirmDialog
      open
      onClose={onClose}
      title={texts.title}
      description={texts.body}
      confirmLabel={texts.confirm}
      tone={texts.tone}
      onConfirm={() => update.mutateAsync({ id: w.id, ...texts.body2 })}
      onDone={() => toast(`${w.name} ${texts.done}`)}
    />
  );
}
