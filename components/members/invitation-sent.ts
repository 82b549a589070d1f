'use client';
// The confirmation after inviting or resending: it says where the e-mail went, as the API reports
// it (`delivery`), because in the Outbox only the operator of this installation can read it.
import { useCallback } from 'react';
import type { SentInvitation } from '@/lib/client/invitations';
import { useMe } from '@/lib/client/me';
import { useToast } from '../ui/toast';

const OUTBOX_TOAST_MS = 12_000;

function invitationSentMessage(invitation: Pick<SentInvitation, 'email' | 'delivery'>, isOperator: boolean): string {
  const { email, delivery } = invitation;
  if (delivery === 'smtp') return `Invitation e-mailed to ${email}`;
  const why = delivery === 'outbox' ? 'No mail server is configured' : 'The mail server refused the e-mail';
  const share = isOperator ? 'You are that operator: copy the link from the Outbox page and share it another way' : 'Ask them to pass the link on';
  const retry = delivery === 'smtp_failed' ? ', or resend to try the mail server again' : '';
  return `${why}, so the invitation to ${email} is in the Outbox, which only the operator of this installation can read. ${share}${retry}.`;
}

export function useInvitationSentToast() {
  const toast = useToast();
  const { data: me } = useMe();
  const isOperator = me?.isAdmin ?? false;
  return useCallback(
    (invitation: SentInvitation) => toast(invitationSentMessage(invitation, isOperator), invitation.delivery === 'smtp' ? undefined : { durationMs: OUTBOX_TOAST_MS }),
    [toast, isOperator],
  );
}
