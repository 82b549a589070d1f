'use client';
// The page of the operator claim link: who is signed in, what the operator may do, and one button
// that makes this account the operator. The link works once; `npm run operator` does the same.
import { errorMessage } from '@/lib/client/api-fetch';
import { useClaimOperator } from '@/lib/client/admin';
import { useMe } from '@/lib/client/me';
import { AuthFrame } from '../auth/auth-frame';
import { Alert } from '../ui/alert';
import { Button, ButtonLink } from '../ui/button';
import { Skeleton } from '../ui/skeleton';

export function ClaimOperatorView({ token }: { token: string }) {
  const me = useMe();
  const claim = useClaimOperator();
  if (claim.isSuccess) {
    return (
      <AuthFrame title="You are the operator" description={`${claim.data.email} is now the operator of this installation.`}>
        <ButtonLink href="/operator/workspaces" variant="primary" className="w-full">
          Open the operator&apos;s workspaces
        </ButtonLink>
      </AuthFrame>
    );
  }
  if (me.isPending) {
    return (
      <AuthFrame title="Become the operator" description="Checking who is signed in…">
        <Skeleton className="h-9 w-full" />
      </AuthFrame>
    );
  }
  const email = me.data?.user.email;
  return (
    <AuthFrame
      title="Become the operator"
      description="The operator of this installation grants credits, marks workspaces enterprise, suspends them, and sees every workspace and the audit log of these actions."
    >
      {me.data?.isAdmin ? (
        <Alert tone="info" title="You are an operator already" className="mb-4">
          {email} holds the operator&apos;s rights; this link stays unused.
        </Alert>
      ) : null}
      {!token ? (
        <Alert tone="warning" title="This link has no token">
          Copy the whole link `npm start` printed, or run <code>npm run operator -- --email &lt;address&gt;</code> on the server.
        </Alert>
      ) : (
        <div className="space-y-4">
          {claim.error && (
            <Alert tone="danger" title="This link did not work">
              {errorMessage(claim.error)}
            </Alert>
          )}
          <p className="text-sm break-words text-zinc-600">
            Signed in as <span className="font-medium text-zinc-900">{email}</span>. The link works once.
          </p>
          <Button variant="primary" className="w-full" loading={claim.isPending} disabled={me.data?.isAdmin} onClick={() => claim.mutate(token)}>
            Become the operator
          </Button>
        </div>
      )}
    </AuthFrame>
  );
}
