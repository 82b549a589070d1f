'use client';
import { useState } from 'react';
import { Button } from '../ui/button';
import { EmptyState } from '../ui/empty-state';
import { BuildingIcon, PlusIcon } from '../ui/icons';
import { CreateWorkspaceDialog } from './create-workspace-dialog';

/** A signed-in user who belongs to no workspace (they left or deleted their last one). */
export function NoWorkspace() {
  const [creating, setCreating] = useState(false);
  return (
    <div className="rounded-xl border border-zinc-200 bg-white">
      <EmptyState
        className="py-16"
        icon={<BuildingIcon />}
        title="You're not in any workspace"
        description="Create a workspace to add routers and invite people, or open an invitation link someone sent you."
        action={
          <Button variant="primary" onClick={() => setCreating(true)}>
            <PlusIcon />
            Create workspace
          </Button>
        }
      />
      <CreateWorkspaceDialog open={creating} onClose={() => setCreating(false)} />
    </div>
  );
}
