import { redirect } from 'next/navigation';

// A router opens on its Providers tab.
export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  redirect(`/routers/${encodeURIComponent(id)}/providers`);
}
