import type { Metadata } from 'next';
import { InvitationView } from '@/components/invite/invitation-view';

export const metadata: Metadata = { title: 'Invitation' };

export default async function Page({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return <InvitationView token={token} />;
}
