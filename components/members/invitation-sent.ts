'use client';
// The confirmation after inviting or resending: it says where the e-mail went, as the API reports
// it (`delivery`). Without a mail server it waits in the Outbox, where only the inviter reads it,
// to pass the link on (an account with the invited address proves nothing: lib/mail/outbox.ts).
import { useCallback } from 'react';
import type { SentInvitation } from '@/lib/client/invitations';
import { useToast } from '../ui/toast';

const OUTBOX_TOAST_MS = 12_000;

function invitationSentMessage(invitation: Pick<SentInvitation, 'email' | 'delivery'>): string {
  const { email, delivery } = invitation;
  if (delivery === 'smtp') return `Invitation e-mailed to ${email}`;
  const why = delivery === 'outbox' ? 'No mail server is configured' : 'The mail server refused the e-mail';
  const retry = delivery === 'smtp_failed' ? ', or resend to try the mail server again' : '';
  return `${why}, so the invitation to ${email} is in the Outbox: copy the link from your Outbox page and pass it on to them${retry}.`;
}

export function useInvitationSentToast() {
  const toast = useToast();
  return useCallback(
    (invitation: SentInvitation) => toast(invitationSentMessage(invitation), invitation.delivery === 'smtp' ? undefined : { durationMs: OUTBOX_TOAST_MS }),
    [toast],
  );
}
