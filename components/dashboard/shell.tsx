'use client';
// The frame of every dashboard page: sidebar (workspace switcher, navigation, user menu), the
// e-mail verification banner, and the page. It loads /v1/me once; pages read it with useMe().
import { usePathname, useRouter } from 'next/navigation';
import { useEffect, useState, type ReactNode } from 'react';
import { isApiError } from '@/lib/client/api-fetch';
import { useMe } from '@/lib/client/me';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { ErrorState } from '../ui/empty-state';
import { LogoMark, MenuIcon, XIcon } from '../ui/icons';
import { Skeleton } from '../ui/skeleton';
import { findNavItem } from './nav';
import { NoWorkspace } from './no-workspace';
import { RestoreAccount } from './restore-account';
import { Sidebar } from './sidebar';
import { VerifyEmailBanner } from './verify-email-banner';

export function DashboardShell({ children }: { children: ReactNode }) {
  const me = useMe();
  const pathname = usePathname();
  const router = useRouter();
  // The menu is open on the page it was opened on: navigating closes it (no effect needed).
  const [menuOpenOn, setMenuOpenOn] = useState<string | null>(null);
  const menuOpen = menuOpenOn === pathname;
  const setMenuOpen = (open: boolean) => setMenuOpenOn(open ? pathname : null);
  const signedOut = isApiError(me.error, 'unauthenticated');

  useEffect(() => {
    // The cookie is gone or was invalidated (signed out everywhere): back to sign-in, then here.
    if (signedOut) router.replace(`/sign-in?callbackUrl=${encodeURIComponent(pathname)}`);
  }, [signedOut, pathname, router]);

  if (me.isPending || signedOut) return <ShellSkeleton />;
  if (me.error) {
    return (
      <div className="flex min-h-screen items-center justify-center">
        <ErrorState error={me.error} onRetry={() => void me.refetch()} />
      </div>
    );
  }
  const data = me.data;
  if (data.deletionScheduledAt) return <RestoreAccount email={data.user.email} deletionScheduledAt={data.deletionScheduledAt} />;

  const needsWorkspace = findNavItem(pathname)?.needsWorkspace ?? false;
  return (
    <div className="min-h-screen">
      {/* Narrow screens: a top bar that opens the sidebar as a drawer. */}
      <div className="sticky top-0 z-30 flex items-center justify-between border-b border-zinc-200 bg-white px-4 py-2.5 md:hidden">
        <span className="flex items-center gap-2 text-sm font-semibold">
          <LogoMark className="size-6" />
          Browser Router
        </span>
        <Button variant="ghost" size="sm" aria-label={menuOpen ? 'Close menu' : 'Open menu'} onClick={() => setMenuOpen(!menuOpen)}>
          {menuOpen ? <XIcon /> : <MenuIcon />}
        </Button>
      </div>
      {menuOpen && <div className="fixed inset-0 z-30 bg-zinc-950/20 md:hidden" onClick={() => setMenuOpen(false)} aria-hidden="true" />}
      <aside
        className={cn(
          'fixed inset-y-0 left-0 z-40 w-64 border-r border-zinc-200 bg-zinc-50/95 backdrop-blur transition-transform md:w-60 md:translate-x-0 md:bg-zinc-50',
          menuOpen ? 'translate-x-0 shadow-xl' : '-translate-x-full',
        )}
      >
        <Sidebar me={data} />
      </aside>
      <div className="md:pl-60">
        {!data.user.emailVerified && <VerifyEmailBanner email={data.user.email} />}
        <main className="mx-auto max-w-6xl px-6 py-8 lg:px-10 lg:py-10">{needsWorkspace && !data.activeWorkspaceId ? <NoWorkspace /> : children}</main>
      </div>
    </div>
  );
}

function ShellSkeleton() {
  return (
    <div className="min-h-screen" aria-busy="true" aria-label="Loading">
      <aside className="fixed inset-y-0 left-0 hidden w-60 border-r border-zinc-200 bg-zinc-50 px-3 pt-4 md:block">
        <Skeleton className="h-6 w-36" />
        <Skeleton className="mt-4 h-11 w-full rounded-lg" />
        <div className="mt-6 space-y-3">
          {Array.from({ length: 8 }, (_, i) => (
            <Skeleton key={i} className="h-4 w-32" />
          ))}
        </div>
      </aside>
      <div className="md:pl-60">
        <div className="mx-auto max-w-6xl px-6 py-10 lg:px-10">
          <Skeleton className="h-7 w-48" />
          <Skeleton className="mt-3 h-4 w-80" />
          <Skeleton className="mt-10 h-48 w-full rounded-xl" />
        </div>
      </div>
    </div>
  );
}
