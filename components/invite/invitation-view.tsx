'use client';
// The page an invitation link opens: who invites you where, then accept or decline when signed
// in, or sign in / sign up and come back here.
import { useRouter } from 'next/navigation';
import { errorMessage, isApiError } from '@/lib/client/api-fetch';
import { signOutTo } from '@/lib/client/auth';
import { useInvitationLookup, useRespondToInvitation, type InvitationLookup } from '@/lib/client/invitations';
import { useMe } from '@/lib/client/me';
import { Alert, ErrorAlert } from '../ui/alert';
import { RoleBadge } from '../ui/badge';
import { Button, ButtonLink } from '../ui/button';
import { Skeleton } from '../ui/skeleton';
import { Time } from '../ui/time';
import { useToast } from '../ui/toast';
import { AuthFrame } from '../auth/auth-frame';

export function InvitationView({ token }: { token: string }) {
  const lookup = useInvitationLookup(token);
  const me = useMe();
  const respond = useRespondToInvitation(token);
  const here = `/invite/${encodeURIComponent(token)}`;

  if (lookup.isPending || (me.isPending && !me.error)) {
    return <LookingUp />;
  }
  if (respond.decline.isSuccess && lookup.data) {
    return (
      <AuthFrame
        title="Invitation declined"
        description={`You won't join ${lookup.data.workspaceName}. ${lookup.data.inviterName} can invite you again later.`}
      >
        <ButtonLink href={me.data ? '/overview' : '/'} variant="secondary" className="w-full">
          {me.data ? 'Go to the dashboard' : 'Go to Browser Router'}
        </ButtonLink>
      </AuthFrame>
    );
  }

  if (lookup.error) return <NotLoaded error={lookup.error} />;

  const invitation = lookup.data;
  const signedIn = me.data ?? null;
  return (
    <AuthFrame
      title={`Join ${invitation.workspaceName}`}
      description={
        <>
          <span className="font-medium text-zinc-700">{invitation.inviterName}</span> invited you to the workspace{' '}
          <span className="font-medium text-zinc-700">{invitation.workspaceName}</span> on Browser Router.
        </>
      }
    >
      <InvitationFacts invitation={invitation} />
      {invitation.expired ? (
        <Alert tone="warning" title="This invitation has expired" className="mt-5">
          Ask {invitation.inviterName} to send you a new one.
        </Alert>
      ) : signedIn ? (
        <RespondAs email={signedIn.user.email} invitation={invitation} respond={respond} here={here} />
      ) : (
        <SignInToAccept email={invitation.email} here={here} />
      )}
    </AuthFrame>
  );
}

function InvitationFacts({ invitation }: { invitation: InvitationLookup }) {
  const rows = [
    { label: 'Workspace', value: invitation.workspaceName },
    { label: 'Invited by', value: invitation.inviterName },
    { label: 'Role', value: <RoleBadge role={invitation.role} /> },
    { label: 'Sent to', value: invitation.email },
    { label: invitation.expired ? 'Expired' : 'Expires', value: <Time value={invitation.expiresAt} relative /> },
  ];
  return (
    <dl className="divide-y divide-zinc-100 rounded-lg border border-zinc-200 text-sm">
      {rows.map((row) => (
        <div key={row.label} className="flex items-center justify-between gap-4 px-3.5 py-2.5">
          <dt className="shrink-0 whitespace-nowrap text-zinc-500">{row.label}</dt>
          <dd className="min-w-0 truncate text-right font-medium text-zinc-900">{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Signed in: accept or decline (with a warning when the invitation was sent to another address). */
function RespondAs({
  email,
  invitation,
  respond,
  here,
}: {
  email: string;
  invitation: InvitationLookup;
  respond: ReturnType<typeof useRespondToInvitation>;
  here: string;
}) {
  const { accept, decline } = respond;
  const router = useRouter();
  const toast = useToast();
  return (
    <div className="mt-6 space-y-4">
      {email !== invitation.email ? (
        <Alert tone="warning" title={`You're signed in as ${email}`}>
          This invitation was sent to {invitation.email}.
          <button
            type="button"
            className="mt-1 block text-left font-medium underline underline-offset-2"
            onClick={() => void signOutTo(`/sign-in?callbackUrl=${encodeURIComponent(here)}`)}
          >
            Sign in as {invitation.email}
          </button>
        </Alert>
      ) : (
        <p className="text-[13px] text-zinc-500">
          Signed in as <span className="font-medium text-zinc-700">{email}</span>
        </p>
      )}
      <ErrorAlert error={accept.error ?? decline.error} />
      <div className="flex gap-2">
        <Button variant="secondary" className="flex-1" loading={decline.isPending} disabled={accept.isPending} onClick={() => decline.mutate()}>
          Decline
        </Button>
        <Button
          variant="primary"
          className="flex-1"
          loading={accept.isPending}
          disabled={decline.isPending}
          onClick={() =>
            accept.mutate(undefined, {
              onSuccess: (result) => {
                toast(`You joined ${result.workspace.name}`);
                router.push('/overview');
              },
            })
          }
        >
          Accept invitation
        </Button>
      </div>
    </div>
  );
}

/** Not signed in: sign up or sign in with the invited address, then come back here. */
function SignInToAccept({ email, here }: { email: string; here: string }) {
  return (
    <div className="mt-6 space-y-3">
      <p className="text-[13px] text-zinc-500">Sign in or create an account with {email} to accept.</p>
      <ButtonLink href={`/sign-up?callbackUrl=${encodeURIComponent(here)}&email=${encodeURIComponent(email)}`} variant="primary" className="w-full">
        Create an account
      </ButtonLink>
      <ButtonLink href={`/sign-in?callbackUrl=${encodeURIComponent(here)}`} variant="secondary" className="w-full">
        Sign in
      </ButtonLink>
    </div>
  );
}

function LookingUp() {
  return (
    <AuthFrame title="Invitation" description="Looking up your invitation…">
      <div className="space-y-3">
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-2/3" />
        <Skeleton className="mt-6 h-9 w-full" />
      </div>
    </AuthFrame>
  );
}

/** The link no longer works (used, cancelled, replaced), or the lookup failed. */
function NotLoaded({ error }: { error: Error }) {
  const gone = isApiError(error, 'not_found');
  return (
    <AuthFrame
      title={gone ? 'This invitation is no longer valid' : "Couldn't load the invitation"}
      description={
        gone ? 'It was accepted, declined or cancelled, or a newer link replaced it. Ask the person who invited you to send a new one.' : errorMessage(error)
      }
    >
      <ButtonLink href="/" variant="secondary" className="w-full">
        Go to Browser Router
      </ButtonLink>
    </AuthFrame>
  );
}
