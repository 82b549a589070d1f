import { getServerSession } from 'next-auth';
import { redirect } from 'next/navigation';
import { authOptions } from '@/lib/auth/next-auth';

// The site root: the dashboard for a signed-in user, the sign-in page for anyone else.
export default async function Home() {
  const session = await getServerSession(authOptions);
  redirect(session ? '/overview' : '/sign-in');
}
