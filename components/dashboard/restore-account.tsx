'use client';
// While the account is marked for deletion, the dashboard shows only this.
import { useUndeleteAccount } from '@/lib/client/me';
import { signOutTo } from '@/lib/client/auth';
import { ErrorAlert } from '../ui/alert';
import { Button } from '../ui/button';
import { AlertTriangleIcon, LogoMark } from '../ui/icons';
import { formatDate } from '../ui/time';

export function RestoreAccount({ email, deletionScheduledAt }: { email: string; deletionScheduledAt: string }) {
  const restore = useUndeleteAccount();
  return (
    <div className="flex min-h-screen flex-col items-center justify-center px-4 py-12">
      <LogoMark className="mb-8 size-9" />
      <div className="w-full max-w-md rounded-xl border border-zinc-200 bg-white p-8 text-center shadow-sm">
        <div className="mx-auto mb-4 flex size-11 items-center justify-center rounded-full bg-red-50 text-red-600">
          <AlertTriangleIcon className="size-5" />
        </div>
        <h1 className="text-lg font-semibold text-zinc-900">Your account is scheduled for deletion</h1>
        <p className="mt-2 text-sm text-zinc-500">
          The account <span className="font-medium text-zinc-700">{email}</span> and the workspaces it owns alone will be deleted on{' '}
          <span className="font-medium text-zinc-700">{formatDate(deletionScheduledAt)}</span>. Until then you can restore everything as it was.
        </p>
        <ErrorAlert error={restore.error} className="mt-4 text-left" />
        <div className="mt-6 flex flex-col gap-2">
          <Button variant="primary" loading={restore.isPending} onClick={() => restore.mutate()}>
            Restore my account
          </Button>
          <Button variant="ghost" onClick={() => void signOutTo('/sign-in')}>
            Sign out
          </Button>
        </div>
      </div>
    </div>
  );
}
