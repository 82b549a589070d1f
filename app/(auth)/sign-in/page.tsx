import type { Metadata } from 'next';
import { SignInForm } from '@/components/auth/sign-in-form';
import { safeCallbackUrl } from '@/lib/client/forms';

export const metadata: Metadata = { title: 'Sign in' };

export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  return <SignInForm callbackUrl={safeCallbackUrl(params.callbackUrl)} notice={params.deleted ? 'deleted' : params.reset ? 'reset' : undefined} />;
}
