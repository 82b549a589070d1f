import type { Metadata } from 'next';
import { ProfilesPage } from '@/components/profiles/profiles-page';

export const metadata: Metadata = { title: 'Profiles' };

export default function Page() {
  return <ProfilesPage />;
}
