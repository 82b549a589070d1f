'use client';
// Server-rendered, so the inputs are uncontrolled and read on submit (see auth-form.tsx).
import { useState } from 'react';
import { signInSchema } from '@/lib/users/schemas';
import { signInWithPassword } from '@/lib/client/auth';
import { validate, type FieldErrors } from '@/lib/client/forms';
import { Alert, ErrorAlert } from '../ui/alert';
import { TextField } from '../ui/input';
import { AuthFrame, TextLink } from './auth-frame';
import { AuthForm, AuthSubmit, authHref } from './auth-form';

export function SignInForm({ callbackUrl, notice }: { callbackUrl: string; notice?: 'deleted' | 'reset' }) {
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

  return (
    <AuthFrame
      title="Sign in"
      description="Welcome back. Sign in to manage your routers and workspaces."
      footer={
        <>
          No account yet? <TextLink href={authHref('/sign-up', callbackUrl)}>Create one</TextLink>
        </>
      }
    >
      <AuthForm onSubmit={(form) => void submit(form)}>
        {notice === 'deleted' && (
          <Alert tone="info" title="Your account is scheduled for deletion">
            You&apos;ve been signed out. Sign in again within 30 days to restore it.
          </Alert>
        )}
        {notice === 'reset' && (
          <Alert tone="success" title="Your password was changed">
            Sign in with the new one.
          </Alert>
        )}
        <TextField label="E-mail" name="email" type="email" autoComplete="email" error={errors.email} autoFocus />
        <div className="space-y-1.5">
          <TextField label="Password" name="password" type="password" autoComplete="current-password" error={errors.password} />
          <div className="text-right text-[13px]">
            <TextLink href="/forgot-password">Forgot password?</TextLink>
          </div>
        </div>
        <ErrorAlert error={error} />
        <AuthSubmit pending={pending}>Sign in</AuthSubmit>
      </AuthForm>
    </AuthFrame>
  );
}
