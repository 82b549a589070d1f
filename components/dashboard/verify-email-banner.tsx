'use client';
// Across the top of the dashboard until the e-mail address is verified. Without a mail server the
// link waits in the user's own Outbox (lib/mail/outbox.ts), which the banner points to.
import Link from 'next/link';
import { errorMessage } from '@/lib/client/api-fetch';
import { useResendVerification } from '@/lib/client/me';
import { Button } from '../ui/button';
import { MailIcon } from '../ui/icons';

export function VerifyEmailBanner({ email }: { email: string }) {
  const resend = useResendVerification();
  return (
    <div role="region" aria-label="E-mail verification" className="border-b border-amber-200 bg-amber-50">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2 px-6 py-2.5 text-sm text-amber-900 lg:px-10">
        <MailIcon className="size-4 shrink-0 text-amber-600" />
        <p className="min-w-0 flex-1">
          <span className="font-medium">Check your e-mail.</span> We sent a link to <span className="font-medium">{email}</span> to verify your address. Without
          a mail server on this installation, it is on your{' '}
          <Link href="/outbox" className="font-medium underline underline-offset-2">
            Outbox
          </Link>{' '}
          page.
        </p>
        {resend.isSuccess ? (
          <span className="text-[13px] font-medium text-amber-800">New link sent: check your inbox</span>
        ) : (
          <Button size="sm" variant="secondary" className="border-amber-300 bg-white/70" loading={resend.isPending} onClick={() => resend.mutate()}>
            Resend e-mail
          </Button>
        )}
        {resend.error && <p className="w-full text-[13px] text-red-700">{errorMessage(resend.error)}</p>}
      </div>
    </div>
  );
}
