'use client';
// The active workspace at the top of the sidebar; switching refetches everything on the page.
import { useState } from 'react';
import { useActiveWorkspace } from '@/lib/client/me';
import { useSwitchWorkspace, useWorkspaces } from '@/lib/client/workspaces';
import { errorMessage } from '@/lib/client/api-fetch';
import { RoleBadge } from '../ui/badge';
import { CheckIcon, ChevronUpDownIcon, PlusIcon } from '../ui/icons';
import { Menu, MenuItem, MenuLabel, MenuSeparator } from '../ui/menu';
import { Skeleton } from '../ui/skeleton';
import { Spinner } from '../ui/spinner';
import { useToast } from '../ui/toast';
import { CreateWorkspaceDialog } from './create-workspace-dialog';

function WorkspaceMark({ name }: { name: string }) {
  return (
    <span aria-hidden="true" className="flex size-7 shrink-0 items-center justify-center rounded-md bg-zinc-900 text-xs font-semibold text-white">
      {name.trim().charAt(0).toUpperCase() || '?'}
    </span>
  );
}

export function WorkspaceSwitcher() {
  const { workspace } = useActiveWorkspace();
  const workspaces = useWorkspaces();
  const switchTo = useSwitchWorkspace();
  const toast = useToast();
  const [creating, setCreating] = useState(false);

  return (
    <>
      <Menu
        triggerLabel={workspace ? `Workspace: ${workspace.name}` : 'Choose a workspace'}
        triggerClassName="flex w-full items-center gap-2.5 rounded-lg border border-zinc-200 bg-white px-2 py-1.5 text-left shadow-xs transition-colors hover:bg-zinc-50"
        trigger={() => <SwitcherTrigger name={workspace?.name} role={workspace?.role} switching={switchTo.isPending} />}
        panelClassName="w-64"
      >
        {(close) => (
          <>
            <MenuLabel>Workspaces</MenuLabel>
            {workspaces.isPending && <Skeleton className="mx-2.5 my-2 h-4 w-40" />}
            {workspaces.error && <p className="px-2.5 py-1.5 text-[13px] text-red-600">{errorMessage(workspaces.error)}</p>}
            {workspaces.data?.map((w) => (
              <MenuItem
                key={w.id}
                selected={w.id === workspace?.id}
                onSelect={() => {
                  close();
                  if (w.id === workspace?.id) return;
                  switchTo.mutate(w.id, { onSuccess: () => toast(`Switched to ${w.name}`) });
                }}
              >
                <WorkspaceMark name={w.name} />
                <span className="min-w-0 flex-1 truncate">{w.name}</span>
                {w.id === workspace?.id ? <CheckIcon className="text-accent-600" /> : <RoleBadge role={w.role} />}
              </MenuItem>
            ))}
            <MenuSeparator />
            <MenuItem
              onSelect={() => {
                close();
                setCreating(true);
              }}
            >
              <PlusIcon />
              Create workspace
            </MenuItem>
          </>
        )}
      </Menu>
      {switchTo.error && <p className="mt-1.5 px-1 text-xs text-red-600">{errorMessage(switchTo.error)}</p>}
      <CreateWorkspaceDialog open={creating} onClose={() => setCreating(false)} />
    </>
  );
}

/** The active workspace and the viewer's role in it (a spinner while switching). */
function SwitcherTrigger({ name, role, switching }: { name: string | undefined; role: string | undefined; switching: boolean }) {
  return (
    <>
      <WorkspaceMark name={name ?? '?'} />
      <span className="min-w-0 flex-1">
        <span className="block truncate text-sm font-medium text-zinc-900">{name ?? 'No workspace'}</span>
        <span className="block truncate text-xs text-zinc-500 capitalize">{role ?? 'Create one to start'}</span>
      </span>
      {switching ? <Spinner className="text-zinc-400" /> : <ChevronUpDownIcon className="size-4 shrink-0 text-zinc-400" />}
    </>
  );
}
