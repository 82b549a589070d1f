import type { ReactNode } from 'react';
import { RouterFrame } from '@/components/routers/router-frame';

export default async function RouterLayout({ children, params }: { children: ReactNode; params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <RouterFrame routerId={id}>{children}</RouterFrame>;
}
