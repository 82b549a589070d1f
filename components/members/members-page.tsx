'use client';
import { useActiveWorkspace } from '@/lib/client/me';
import { PageHeader } from '../ui/page-header';
import { InvitationsCard } from './invitations-card';
import { MembersCard } from './members-card';
import { WorkspaceSettingsCard } from './workspace-settings-card';

export function MembersPage() {
  const { workspace } = useActiveWorkspace();
  return (
    <>
      <PageHeader
        eyebrow={workspace?.name}
        title="Members"
        description="Everyone in this workspace shares its routers, profiles and wallet. Owners and admins manage who is in it."
      />
      <div className="space-y-6">
        <MembersCard />
        <InvitationsCard />
        <WorkspaceSettingsCard />
      </div>
    </>
  );
}
