'use client';
// Server-rendered, so the inputs are uncontrolled and read on submit: what someone types before
// the page hydrates is kept, and the button stays disabled until the handler exists.
import { useState } from 'react';
import { signInSchema } from '@/lib/users/schemas';
import { signInWithPassword } from '@/lib/client/auth';
import { validate, type FieldErrors } from '@/lib/client/forms';
import { useHydrated } from '@/lib/client/use-hydrated';
import { Alert, ErrorAlert } from '../ui/alert';
import { Button } from '../ui/button';
import { TextField } from '../ui/input';
import { AuthFrame, TextLink } from './auth-frame';

export function SignInForm({ callbackUrl, notice }: { callbackUrl: string; notice?: 'deleted' }) {
  const hydrated = useHydrated();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);

  const submit = async (form: HTMLFormElement) => {
    const values = Object.fromEntries(new FormData(form));
    const parsed = validate(signInSchema, values);
    if (!parsed.ok) return setErrors(parsed.errors.password ? { ...parsed.errors, password: 'Enter your password' } : parsed.errors);
    setErrors({});
    setError(null);
    setPending(true);
    try {
      await signInWithPassword(parsed.data.email, parsed.data.password);
      // A full load: the dashboard's server layout reads the new session cookie.
      window.location.assign(callbackUrl);
    } catch (thrown) {
      setError(thrown);
      setPending(false);
    }
  };

  const signUpHref = `/sign-up${callbackUrl !== '/overview' ? `?callbackUrl=${encodeURIComponent(callbackUrl)}` : ''}`;
  return (
    <AuthFrame
      title="Sign in"
      description="Welcome back. Sign in to manage your routers and workspaces."
      footer={
        <>
          No account yet? <TextLink href={signUpHref}>Create one</TextLink>
        </>
      }
    >
      <form
        noValidate
        method="post"
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          void submit(event.currentTarget);
        }}
      >
        {notice === 'deleted' && (
          <Alert tone="info" title="Your account is scheduled for deletion">
            You&apos;ve been signed out. Sign in again within 30 days to restore it.
          </Alert>
        )}
        <TextField label="E-mail" name="email" type="email" autoComplete="email" error={errors.email} autoFocus />
        <TextField label="Password" name="password" type="password" autoComplete="current-password" error={errors.password} />
        <ErrorAlert error={error} />
        <Button type="submit" variant="primary" className="w-full" loading={pending} disabled={!hydrated}>
          Sign in
        </Button>
      </form>
    </AuthFrame>
  );
}
