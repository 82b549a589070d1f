import type { Metadata } from 'next';
import { TraceViewer } from '@/components/traces/trace-viewer';

export const metadata: Metadata = { title: 'Trace' };

export default async function Page({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [{ id }, query] = await Promise.all([params, searchParams]);
  // `?router=`: the trace's router, when the link knew it was not the active one.
  const router = typeof query.router === 'string' && query.router ? query.router : null;
  return <TraceViewer id={id} routerParam={router} />;
}
