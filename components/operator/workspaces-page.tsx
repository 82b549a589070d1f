'use client';
// The operator's panel over every workspace of the installation: find one (name, slug, owner's
// e-mail or id), grant it credits with a note, mark it enterprise, suspend it. Each change is
// confirmed first; grants land in the workspace's ledger as `grant` entries, and every change in
// the operator's audit log below.
import { useEffect, useId, useState } from 'react';
import { useAdminWorkspaces, type AdminWorkspace } from '@/lib/client/admin';
import { OperatorActionsCard } from './actions-card';
import { PendingCheckoutsCard } from './pending-checkouts-card';
import { workspaceColumns, type WorkspaceAction } from './workspace-columns';
import { ChangeDialog, GrantDialog } from './workspace-dialogs';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { DataTable } from '../ui/data-table';
import { EmptyState } from '../ui/empty-state';
import { BuildingIcon, RefreshIcon, SearchCodeIcon } from '../ui/icons';
import { Input } from '../ui/input';
import { PageHeader } from '../ui/page-header';

export function OperatorWorkspacesPage() {
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [action, setAction] = useState<WorkspaceAction | null>(null);
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
