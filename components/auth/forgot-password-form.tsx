'use client';
// Asks for a reset link. The server answers the same whether or not an account has the address,
// so this page says the same too: "if an account uses it, a link is on its way".
import { useState } from 'react';
import { requestPasswordReset } from '@/lib/client/auth';
import { fieldErrorsFromApi, validate, type FieldErrors } from '@/lib/client/forms';
import { passwordResetRequestSchema } from '@/lib/users/schemas';
import { ErrorAlert } from '../ui/alert';
import { ButtonLink } from '../ui/button';
import { MailIcon } from '../ui/icons';
import { TextField } from '../ui/input';
import { AuthFrame, TextLink } from './auth-frame';
import { AuthForm, AuthSubmit } from './auth-form';

/** The request's state: field errors, another error, pending, and the address a link was sent to. */
function useResetRequest() {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const submit = async (form: HTMLFormElement) => {
    const parsed = validate(passwordResetRequestSchema, Object.fromEntries(new FormData(form)));
    if (!parsed.ok) return setErrors(parsed.errors);
    setErrors({});
    setError(null);
    setPending(true);
    try {
      await requestPasswordReset(parsed.data.email);
      setSentTo(parsed.data.email);
    } catch (thrown) {
      const fields = fieldErrorsFromApi(thrown, ['email']);
      if (fields) setErrors(fields);
      else setError(thrown);
    } finally {
      setPending(false);
    }
  };
  return { errors, error, pending, sentTo, submit };
}

export function ForgotPasswordForm() {
  const { errors, error, pending, sentTo, submit } = useResetRequest();

  const footer = (
    <>
      Remembered it? <TextLink href="/sign-in">Sign in</TextLink>
    </>
  );

  if (sentTo) {
    return (
      <AuthFrame title="Check your e-mail">
        <ResetRequested sentTo={sentTo} />
      </AuthFrame>
    );
  }

  return (
    <AuthFrame
      title="Reset your password"
      description="Enter the e-mail address of your account and we'll send you a link to choose a new password."
      footer={footer}
    >
      <AuthForm onSubmit={(form) => void submit(form)}>
        <TextField label="E-mail" name="email" type="email" autoComplete="email" error={errors.email} autoFocus />
        <ErrorAlert error={error} />
        <AuthSubmit pending={pending}>Send reset link</AuthSubmit>
      </AuthForm>
    </AuthFrame>
  );
}

/** The request went out: the same words whether or not an account uses the address. */
function ResetRequested({ sentTo }: { sentTo: string }) {
  return (
    <div className="flex flex-col items-center gap-4 py-2 text-center">
      <MailIcon className="size-12 text-accent-500" />
      <p className="text-sm text-zinc-600" data-testid="reset-requested">
        If an account uses <span className="font-medium text-zinc-900">{sentTo}</span>, we sent it a link to choose a new password. The link works once, within
        an hour.
      </p>
      <p className="text-[13px] text-zinc-500">Nothing after a few minutes? Check the spam folder, or ask again: a new link replaces the old one.</p>
      <ButtonLink href="/sign-in" variant="primary" className="w-full">
        Back to sign in
      </ButtonLink>
    </div>
  );
}
