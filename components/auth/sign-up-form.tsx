'use client';
// Server-rendered like the sign-in form: uncontrolled inputs, read on submit, button enabled
// once hydrated. Validated with the server's own schema before it is sent.
import { useState } from 'react';
import { signUpSchema } from '@/lib/users/schemas';
import { signUpAndSignIn } from '@/lib/client/auth';
import { fieldErrorsFromApi, validate, type FieldErrors } from '@/lib/client/forms';
import { ErrorAlert } from '../ui/alert';
import { TextField } from '../ui/input';
import { AuthFrame, TextLink } from './auth-frame';
import { AuthForm, AuthSubmit, authHref } from './auth-form';

export function SignUpForm({ callbackUrl, email }: { callbackUrl: string; email?: string }) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);

  const submit = async (form: HTMLFormElement) => {
    const parsed = validate(signUpSchema, Object.fromEntries(new FormData(form)));
    if (!parsed.ok) return setErrors(parsed.errors);
    setErrors({});
    setError(null);
    setPending(true);
    try {
      await signUpAndSignIn(parsed.data);
      window.location.assign(callbackUrl);
    } catch (thrown) {
      const fields = fieldErrorsFromApi(thrown, ['name', 'email', 'password']);
      if (fields) setErrors(fields);
      else setError(thrown);
      setPending(false);
    }
  };

  return (
    <AuthFrame
      title="Create your account"
      description="One WebSocket address for every browser provider. Free to start."
      footer={
        <>
          Already have an account? <TextLink href={authHref('/sign-in', callbackUrl)}>Sign in</TextLink>
        </>
      }
    >
      <AuthForm onSubmit={(form) => void submit(form)}>
        <TextField label="Name" name="name" autoComplete="name" error={errors.name} autoFocus maxLength={100} />
        <TextField label="Work e-mail" name="email" type="email" autoComplete="email" defaultValue={email} error={errors.email} />
        <TextField label="Password" name="password" type="password" autoComplete="new-password" error={errors.password} hint="At least 10 characters." />
        <ErrorAlert error={error} />
        <AuthSubmit pending={pending}>Create account</AuthSubmit>
        <p className="text-center text-xs text-zinc-400">We&apos;ll send a link to confirm your e-mail address.</p>
      </AuthForm>
    </AuthFrame>
  );
}
