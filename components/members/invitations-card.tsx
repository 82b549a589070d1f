'use client';
import { useState } from 'react';
import { useActiveWorkspace } from '@/lib/client/me';
import { useCancelInvitation, useInvitations, useResendInvitation, type Invitation, type SentInvitation } from '@/lib/client/invitations';
import { ErrorAlert } from '../ui/alert';
import { Badge, RoleBadge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { DataTable } from '../ui/data-table';
import { ConfirmDialog } from '../ui/dialog';
import { EmptyState } from '../ui/empty-state';
import { MailIcon } from '../ui/icons';
import { Time } from '../ui/time';
import { useToast } from '../ui/toast';
import { useInvitationSentToast } from './invitation-sent';
import { InviteForm } from './invite-form';

export function InvitationsCard() {
  const invitations = useInvitations();
  const resend = useResendInvitation();
  const cancel = useCancelInvitation();
  const { canManage } = useActiveWorkspace();
  const toast = useToast();
  const toastSent = useInvitationSentToast();
  const [cancelling, setCancelling] = useState<Invitation | null>(null);

  return (
    <Card>
      <CardHeader
        title="Pending invitations"
        description={canManage ? 'Invite people by e-mail. They join when they accept the link.' : 'Only the owner and admins can invite people.'}
      />
      {canManage && <InviteForm />}
      <DataTable<Invitation>
        label="Pending invitations"
        query={invitations}
        rows={invitations.data}
        rowKey={(i) => i.id}
        empty={
          <EmptyState
            icon={<MailIcon />}
            title="No pending invitations"
            description={canManage ? 'Invitations you send appear here until they are accepted.' : undefined}
          />
        }
        columns={[
          { key: 'email', header: 'E-mail', cell: (i) => <span className="font-medium text-zinc-900">{i.email}</span> },
          { key: 'role', header: 'Role', cell: (i) => <RoleBadge role={i.role} /> },
          { key: 'by', header: 'Invited by', className: 'hidden md:table-cell', cell: (i) => i.invitedByName },
          {
            key: 'expires',
            header: 'Expires',
            cell: (i) => (new Date(i.expiresAt).getTime() <= Date.now() ? <Badge tone="warning">Expired</Badge> : <Time value={i.expiresAt} relative />),
          },
          {
            key: 'actions',
            header: <span className="sr-only">Actions</span>,
            className: 'text-right',
            cell: (i) => (canManage ? <InvitationActions invitation={i} resend={resend} onResent={toastSent} onCancel={setCancelling} /> : null),
          },
        ]}
      />
      {resend.error && <ErrorAlert error={resend.error} className="m-5 mt-0" />}
      <ConfirmDialog
        open={cancelling !== null}
        onClose={() => setCancelling(null)}
        title="Cancel this invitation?"
        description={`The link sent to ${cancelling?.email ?? ''} stops working. You can invite them again later.`}
        confirmLabel="Cancel invitation"
        onConfirm={async () => {
          if (cancelling) await cancel.mutateAsync(cancelling.id);
        }}
        onDone={() => toast('Invitation cancelled')}
      />
    </Card>
  );
}

interface InvitationActionsProps {
  invitation: Invitation;
  resend: ReturnType<typeof useResendInvitation>;
  onResent: (sent: SentInvitation) => void;
  onCancel: (invitation: Invitation) => void;
}

/** Resend the link, or cancel the invitation (asking first). */
function InvitationActions({ invitation: i, resend, onResent, onCancel }: InvitationActionsProps) {
  return (
    <div className="flex justify-end gap-1">
      <Button
        size="sm"
        variant="ghost"
        aria-label={`Resend invitation to ${i.email}`}
        loading={resend.isPending && resend.variables === i.id}
        onClick={() => resend.mutate(i.id, { onSuccess: onResent })}
      >
        Resend
      </Button>
      <Button size="sm" variant="danger-ghost" aria-label={`Cancel invitation to ${i.email}`} onClick={() => onCancel(i)}>
        Cancel
      </Button>
    </div>
  );
}
