'use client';
// Opened from the verification e-mail: posts the token once, then says how it went.
import { useEffect, useRef } from 'react';
import { errorMessage, isApiError } from '@/lib/client/api-fetch';
import { useMe, useVerifyEmail } from '@/lib/client/me';
import { ButtonLink } from '../ui/button';
import { CheckCircleIcon, XCircleIcon } from '../ui/icons';
import { Spinner } from '../ui/spinner';
import { AuthFrame } from '../auth/auth-frame';

export function VerifyEmailView({ token }: { token: string | null }) {
  const verify = useVerifyEmail();
  const me = useMe();
  const sent = useRef(false);
  useEffect(() => {
    // The token is single-use: post it exactly once, even if the effect runs twice.
    if (!token || sent.current) return;
    sent.current = true;
    verify.mutate(token);
  }, [token, verify]);

  const signedIn = Boolean(me.data) && !isApiError(me.error, 'unauthenticated');
  const next = signedIn ? { href: '/overview', label: 'Go to the dashboard' } : { href: '/sign-in', label: 'Sign in' };

  if (verify.isSuccess) {
    return (
      <AuthFrame title="E-mail verified" description="Thanks, your e-mail address is confirmed.">
        <div className="flex flex-col items-center gap-5 py-2 text-center">
          <CheckCircleIcon className="size-12 text-emerald-500" />
          <ButtonLink href={next.href} variant="primary" className="w-full">
            {next.label}
          </ButtonLink>
        </div>
      </AuthFrame>
    );
  }
  if (!token || verify.isError) {
    return (
      <AuthFrame
        title="This link didn't work"
        description={
          token
            ? errorMessage(verify.error).replace(/^Token: (.)/, (_, c: string) => c.toUpperCase())
            : 'The link has no token in it. Open it again from the e-mail.'
        }
      >
        <div className="flex flex-col items-center gap-5 py-2 text-center">
          <XCircleIcon className="size-12 text-red-500" />
          <p className="text-sm text-zinc-500">
            {signedIn
              ? 'Ask for a new link from the banner at the top of the dashboard.'
              : 'Sign in and ask for a new link from the banner at the top of the dashboard.'}
          </p>
          <ButtonLink href={next.href} variant="primary" className="w-full">
            {next.label}
          </ButtonLink>
        </div>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title="Verifying your e-mail…">
      <div className="flex justify-center py-6 text-zinc-400">
        <Spinner className="size-6" />
      </div>
    </AuthFrame>
  );
}
