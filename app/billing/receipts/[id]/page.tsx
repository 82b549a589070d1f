import type { Metadata } from 'next';
import { getServerSession } from 'next-auth';
import { redirect } from 'next/navigation';
import { ReceiptView } from '@/components/billing/receipt-view';
import { authOptions } from '@/lib/auth/next-auth';

export const metadata: Metadata = { title: 'Receipt' };

// A printable page of its own (no dashboard frame). Signed out: sign in, then back here.
export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!(await getServerSession(authOptions))) redirect(`/sign-in?callbackUrl=${encodeURIComponent(`/billing/receipts/${id}`)}`);
  return <ReceiptView id={id} />;
}
