'use client';
// Opened from the reset e-mail: a new password, twice, checked with the sign-up rules. The token
// goes to the server only on submit; a refused link says why and offers a new one.
import { useState } from 'react';
import { completePasswordReset } from '@/lib/client/auth';
import { fieldErrorsFromApi, validate, type FieldErrors } from '@/lib/client/forms';
import { resetPasswordFormSchema } from '@/lib/users/schemas';
import { ErrorAlert } from '../ui/alert';
import { ButtonLink } from '../ui/button';
import { CheckCircleIcon, XCircleIcon } from '../ui/icons';
import { TextField } from '../ui/input';
import { AuthFrame, TextLink } from './auth-frame';
import { AuthForm, AuthSubmit } from './auth-form';

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function ResetPasswordForm({ token }: { token: string | null }) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<unknown>(null);
  const [linkProblem, setLinkProblem] = useState<string | null>(token ? null : 'The link has no token in it. Open it again from the e-mail.');
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState(false);

  const submit = async (form: HTMLFormElement) => {
    if (!token) return;
    const parsed = validate(resetPasswordFormSchema, Object.fromEntries(new FormData(form)));
    if (!parsed.ok) return setErrors(parsed.errors);
    setErrors({});
    setError(null);
    setPending(true);
    try {
      await completePasswordReset(token, parsed.data.password);
      setDone(true);
    } catch (thrown) {
      const fields = fieldErrorsFromApi(thrown, ['token', 'password']);
      if (fields?.token) setLinkProblem(fields.token);
      else if (fields) setErrors(fields);
      else setError(thrown);
    } finally {
      setPending(false);
    }
  };

  if (done) return <PasswordChanged />;
  if (linkProblem) return <LinkProblem problem={linkProblem} />;
  return (
    <AuthFrame
      title="Choose a new password"
      description="Saving it signs you out everywhere and revokes your account's access tokens."
      footer={
        <>
          Remembered it? <TextLink href="/sign-in">Sign in</TextLink>
        </>
      }
    >
      <AuthForm onSubmit={(form) => void submit(form)}>
        <TextField
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          error={errors.password}
          hint="At least 10 characters."
          autoFocus
        />
        <TextField label="Repeat the new password" name="confirm" type="password" autoComplete="new-password" error={errors.confirm} />
        <ErrorAlert error={error} />
        <AuthSubmit pending={pending}>Save new password</AuthSubmit>
      </AuthForm>
    </AuthFrame>
  );
}

function PasswordChanged() {
  return (
    <AuthFrame title="Password changed" description="Every session of your account was signed out, and its access tokens were revoked.">
      <div className="flex flex-col items-center gap-5 py-2 text-center">
        <CheckCircleIcon className="size-12 text-emerald-500" />
        <ButtonLink href="/sign-in?reset=1" variant="primary" className="w-full">
          Sign in with the new password
        </ButtonLink>
      </div>
    </AuthFrame>
  );
}

/** The link is broken, used or expired: why, and the way to a new one. */
function LinkProblem({ problem }: { problem: string }) {
  return (
    <AuthFrame title="This link didn't work" description={capitalise(problem)}>
      <div className="flex flex-col items-center gap-5 py-2 text-center">
        <XCircleIcon className="size-12 text-red-500" />
        <ButtonLink href="/forgot-password" variant="primary" className="w-full">
          Ask for a new link
        </ButtonLink>
      </div>
    </AuthFrame>
  );
}
