'use client';
// The danger zone of the workspace: the owner deletes it, anyone else leaves it.
import { useRouter } from 'next/navigation';
import { useActiveWorkspace } from '@/lib/client/me';
import { useDeleteWorkspace, useLeaveWorkspace } from '@/lib/client/workspaces';
import { DangerCard } from '../ui/danger-card';
import { useToast } from '../ui/toast';

export function WorkspaceSettingsCard() {
  const { workspace, isOwner } = useActiveWorkspace();
  const remove = useDeleteWorkspace();
  const leave = useLeaveWorkspace();
  const router = useRouter();
  const toast = useToast();
  if (!workspace) return null;
  return isOwner ? (
    <DangerCard
      title="Delete workspace"
      description="Deletes the workspace and everything in it at once: routers, providers, keys, profiles, sessions, recordings, webhooks and the wallet."
      action="Delete workspace"
      confirm={{
        title: `Delete ${workspace.name}?`,
        description: 'This cannot be undone. Every router stops accepting connections immediately.',
        confirmLabel: 'Delete workspace',
        requireText: workspace.slug,
        onConfirm: () => remove.mutateAsync({ workspaceId: workspace.id, confirm: workspace.slug }),
        onDone: () => {
          toast(`Deleted ${workspace.name}`);
          router.push('/overview');
        },
      }}
    />
  ) : (
    <DangerCard
      title="Leave workspace"
      description={`You lose access to ${workspace.name}. Someone will have to invite you again to come back.`}
      action="Leave workspace"
      confirm={{
        title: `Leave ${workspace.name}?`,
        description: "You'll switch to another of your workspaces.",
        confirmLabel: 'Leave workspace',
        onConfirm: () => leave.mutateAsync(workspace.id),
        onDone: () => {
          toast(`You left ${workspace.name}`);
          router.push('/overview');
        },
      }}
    />
  );
}
