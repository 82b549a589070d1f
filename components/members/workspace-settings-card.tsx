'use client';
// The danger zone of the workspace: the owner deletes it, anyone else leaves it.
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useActiveWorkspace } from '@/lib/client/me';
import { useDeleteWorkspace, useLeaveWorkspace } from '@/lib/client/workspaces';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { ConfirmDialog } from '../ui/dialog';
import { useToast } from '../ui/toast';

export function WorkspaceSettingsCard() {
  const { workspace, isOwner } = useActiveWorkspace();
  const remove = useDeleteWorkspace();
  const leave = useLeaveWorkspace();
  const router = useRouter();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  if (!workspace) return null;

  return (
    <Card tone="danger">
      {isOwner ? (
        <CardHeader
          title="Delete workspace"
          description="Deletes the workspace and everything in it at once: routers, providers, keys, profiles, sessions, recordings, webhooks and the wallet."
          actions={
            <Button variant="danger-secondary" size="sm" onClick={() => setOpen(true)}>
              Delete workspace
            </Button>
          }
        />
      ) : (
        <CardHeader
          title="Leave workspace"
          description={`You lose access to ${workspace.name}. Someone will have to invite you again to come back.`}
          actions={
            <Button variant="danger-secondary" size="sm" onClick={() => setOpen(true)}>
              Leave workspace
            </Button>
          }
        />
      )}
      <ConfirmDialog
        open={open && isOwner}
        onClose={() => setOpen(false)}
        title={`Delete ${workspace.name}?`}
        description="This cannot be undone. Every router stops accepting connections immediately."
        confirmLabel="Delete workspace"
        requireText={workspace.slug}
        onConfirm={() => remove.mutateAsync({ workspaceId: workspace.id, confirm: workspace.slug })}
        onDone={() => {
          toast(`Deleted ${workspace.name}`);
          router.push('/overview');
        }}
      />
      <ConfirmDialog
        open={open && !isOwner}
        onClose={() => setOpen(false)}
        title={`Leave ${workspace.name}?`}
        description="You'll switch to another of your workspaces."
        confirmLabel="Leave workspace"
        onConfirm={() => leave.mutateAsync(workspace.id)}
        onDone={() => {
          toast(`You left ${workspace.name}`);
          router.push('/overview');
        }}
      />
    </Card>
  );
}
