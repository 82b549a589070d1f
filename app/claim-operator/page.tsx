import type { Metadata } from 'next';
import { getServerSession } from 'next-auth';
import { redirect } from 'next/navigation';
import { ClaimOperatorView } from '@/components/operator/claim-view';
import { authOptions } from '@/lib/auth/next-auth';

export const metadata: Metadata = { title: 'Become the operator' };

// The claim link `npm start` prints while the installation has no operator. Signed out: sign in
// (or sign up) first, then back here with the link's token.
export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await searchParams;
  const value = typeof token === 'string' ? token : '';
  if (!(await getServerSession(authOptions))) redirect(`/sign-in?callbackUrl=${encodeURIComponent(`/claim-operator?token=${encodeURIComponent(value)}`)}`);
  return <ClaimOperatorView token={value} />;
}
