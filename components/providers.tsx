'use client';
import type { ReactNode } from 'react';
import { QueryProvider } from '@/lib/client/query-client';
import { ToastProvider } from './ui/toast';

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryProvider>
      <ToastProvider>{children}</ToastProvider>
    </QueryProvider>
  );
}
