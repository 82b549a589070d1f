'use client';
import { useState } from 'react';
import { useActiveWorkspace, useMe } from '@/lib/client/me';
import { useMembers, useRemoveMember, type Member } from '@/lib/client/members';
import { Avatar } from '../ui/avatar';
import { Badge, RoleBadge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { DataTable } from '../ui/data-table';
import { ConfirmDialog } from '../ui/dialog';
import { EmptyState } from '../ui/empty-state';
import { UsersIcon } from '../ui/icons';
import { Time } from '../ui/time';
import { useToast } from '../ui/toast';

export function MembersCard() {
  const members = useMembers();
  const remove = useRemoveMember();
  const { data: me } = useMe();
  const { workspace, canManage } = useActiveWorkspace();
  const toast = useToast();
  const [removing, setRemoving] = useState<Member | null>(null);
  const count = members.data?.length;

  return (
    <Card>
      <CardHeader
        title="Members"
        description={
          count === undefined ? 'People in this workspace.' : `${count} ${count === 1 ? 'person' : 'people'} in ${workspace?.name ?? 'this workspace'}.`
        }
      />
      <DataTable<Member>
        label="Members"
        query={members}
        rows={members.data}
        rowKey={(m) => m.id}
        empty={<EmptyState icon={<UsersIcon />} title="No members" />}
        columns={[
          {
            key: 'name',
            header: 'Name',
            cell: (m) => <MemberName member={m} you={m.userId === me?.user.id} />,
          },
          { key: 'email', header: 'E-mail', className: 'hidden md:table-cell', cell: (m) => m.email },
          { key: 'role', header: 'Role', cell: (m) => <RoleBadge role={m.role} /> },
          { key: 'joined', header: 'Joined', className: 'hidden sm:table-cell', cell: (m) => <Time value={m.joinedAt} /> },
          {
            key: 'actions',
            header: <span className="sr-only">Actions</span>,
            className: 'text-right',
            cell: (m) =>
              canManage && m.role !== 'owner' && m.userId !== me?.user.id ? (
                <Button size="sm" variant="danger-ghost" aria-label={`Remove ${m.email}`} onClick={() => setRemoving(m)}>
                  Remove
                </Button>
              ) : null,
          },
        ]}
      />
      <ConfirmDialog
        open={removing !== null}
        onClose={() => setRemoving(null)}
        title={`Remove ${removing?.name ?? ''}?`}
        description={`${removing?.email ?? ''} loses access to ${workspace?.name ?? 'this workspace'} at once. You can invite them again later.`}
        confirmLabel="Remove member"
        onConfirm={async () => {
          if (removing) await remove.mutateAsync(removing.userId);
        }}
        onDone={() => toast('Member removed')}
      />
    </Card>
  );
}

/** The member's picture and name ("You" for the viewer), with the e-mail below it on narrow screens. */
function MemberName({ member: m, you }: { member: Member; you: boolean }) {
  return (
    <span className="flex items-center gap-3">
      <Avatar name={m.name} />
      <span className="min-w-0">
        <span className="flex items-center gap-2 font-medium text-zinc-900">
          {m.name}
          {you && <Badge>You</Badge>}
        </span>
        <span className="block text-[13px] text-zinc-500 md:hidden">{m.email}</span>
      </span>
    </span>
  );
}
