import type { Metadata } from 'next';
import { SignUpForm } from '@/components/auth/sign-up-form';
import { safeCallbackUrl } from '@/lib/client/forms';

export const metadata: Metadata = { title: 'Create your account' };

export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  return <SignUpForm callbackUrl={safeCallbackUrl(params.callbackUrl)} email={typeof params.email === 'string' ? params.email : undefined} />;
}
