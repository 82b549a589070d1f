'use client';
// Deleting the account marks it (and the workspaces it owns alone) for deletion; the server signs
// the user out everywhere, and signing in again within 30 days offers to restore it.
import { signOutTo } from '@/lib/client/auth';
import { useDeleteAccount, type Me } from '@/lib/client/me';
import { Alert } from '../ui/alert';
import { DangerCard } from '../ui/danger-card';

export function DeleteAccountCard({ me }: { me: Me }) {
  const remove = useDeleteAccount();
  const owned = me.workspaces.filter((w) => w.role === 'owner');
  return (
    <DangerCard
      title="Delete account"
      description="Your account and the workspaces you own alone are deleted after 30 days. Sign in before then to restore them."
      action="Delete account"
      confirm={{
        title: 'Delete your account?',
        description: "You'll be signed out everywhere and your access tokens stop working. You can restore the account by signing in within 30 days.",
        confirmLabel: 'Delete my account',
        requireText: me.user.email,
        // A 409 workspaces_have_other_members is shown as the server words it (it names the workspaces).
        onConfirm: () => remove.mutateAsync(),
        onDone: () => void signOutTo('/sign-in?deleted=1'),
        children: owned.length > 0 && (
          <Alert tone="warning" title={`You own ${owned.length === 1 ? 'a workspace' : `${owned.length} workspaces`}`}>
            {owned.map((w) => w.name).join(', ')} will be deleted with your account. If someone else is a member, remove them or delete the workspace first.
          </Alert>
        ),
      }}
    />
  );
}
