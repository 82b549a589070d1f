import type { Metadata } from 'next';
import { OperatorWorkspacesPage } from '@/components/operator/workspaces-page';

export const metadata: Metadata = { title: 'Workspaces' };

export default function Page() {
  return <OperatorWorkspacesPage />;
}
