'use client';
import type { Me } from '@/lib/client/me';
import { Avatar } from '../ui/avatar';
import { Badge } from '../ui/badge';
import { Card, CardHeader, DescriptionList } from '../ui/card';
import { CopyButton } from '../ui/copy-button';

export function ProfileCard({ me }: { me: Me }) {
  const { user } = me;
  return (
    <Card>
      <CardHeader title="Profile" description="How you appear to the people in your workspaces." />
      <div className="flex items-center gap-4 border-b border-zinc-100 px-5 py-4">
        <Avatar name={user.name} className="size-12 text-sm" />
        <div className="min-w-0">
          <div className="truncate text-base font-semibold text-zinc-900">{user.name}</div>
          <div className="truncate text-sm text-zinc-500">{user.email}</div>
        </div>
      </div>
      <DescriptionList
        items={[
          {
            label: 'E-mail',
            value: (
              <span className="flex flex-wrap items-center gap-2">
                {user.email}
                {user.emailVerified ? <Badge tone="success">Verified</Badge> : <Badge tone="warning">Not verified</Badge>}
              </span>
            ),
          },
          { label: 'Workspaces', value: me.workspaces.length === 1 ? '1 workspace' : `${me.workspaces.length} workspaces` },
          {
            label: 'User ID',
            value: (
              <span className="flex items-center gap-2">
                <code className="truncate font-mono text-[13px] text-zinc-600">{user.id}</code>
                <CopyButton value={user.id} variant="ghost" label="Copy" />
              </span>
            ),
          },
        ]}
      />
    </Card>
  );
}
