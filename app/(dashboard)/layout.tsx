import { getServerSession } from 'next-auth';
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { DashboardShell } from '@/components/dashboard/shell';
import { authOptions } from '@/lib/auth/next-auth';

// Without a session cookie there is nothing to show; a stale cookie is caught by the shell,
// which gets 401 from /v1/me and sends the user to sign in.
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  if (!(await getServerSession(authOptions))) redirect('/sign-in');
  return <DashboardShell>{children}</DashboardShell>;
}
