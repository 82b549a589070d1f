'use client';
import { useMe } from '@/lib/client/me';
import { PageHeader } from '../ui/page-header';
import { AccessTokensCard } from './access-tokens-card';
import { DeleteAccountCard } from './delete-account-card';
import { PasswordCard } from './password-card';
import { ProfileCard } from './profile-card';

export function AccountPage() {
  const { data: me } = useMe();
  if (!me) return null;
  return (
    <>
      <PageHeader title="Account" description="Your profile and password, your API access tokens, and your account." />
      <div className="space-y-6">
        <ProfileCard me={me} />
        <PasswordCard />
        <AccessTokensCard />
        <DeleteAccountCard me={me} />
      </div>
    </>
  );
}
