'use client';
// The sign-in and sign-up forms are server-rendered, so their inputs are uncontrolled and read on
// submit: what someone types before the page hydrates is kept, and the button stays disabled until
// the handler exists.
import type { ReactNode } from 'react';
import { useHydrated } from '@/lib/client/use-hydrated';
import { Button } from '../ui/button';

/** `onSubmit` gets the form element, to read its values with FormData. */
export function AuthForm({ onSubmit, children }: { onSubmit: (form: HTMLFormElement) => void; children: ReactNode }) {
  return (
    <form
      noValidate
      method="post"
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(event.currentTarget);
      }}
    >
      {children}
    </form>
  );
}

export function AuthSubmit({ pending, children }: { pending: boolean; children: ReactNode }) {
  const hydrated = useHydrated();
  return (
    <Button type="submit" variant="primary" className="w-full" loading={pending} disabled={!hydrated}>
      {children}
    </Button>
  );
}

/** The link to the other form (sign-in ↔ sign-up), keeping where to go afterwards unless that is the default. */
export function authHref(path: '/sign-in' | '/sign-up', callbackUrl: string) {
  return `${path}${callbackUrl !== '/overview' ? `?callbackUrl=${encodeURIComponent(callbackUrl)}` : ''}`;
}
