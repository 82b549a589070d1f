'use client';
// Changing the password: the current one first. The server signs out every other session and
// renews this one's cookie in the same answer, so the page stays signed in.
import { useState } from 'react';
import { fieldErrorsFromApi, validate, type FieldErrors } from '@/lib/client/forms';
import { useChangePassword } from '@/lib/client/me';
import { changePasswordFormSchema } from '@/lib/users/schemas';
import { ErrorAlert } from '../ui/alert';
import { Button } from '../ui/button';
import { Card, CardFooter, CardHeader } from '../ui/card';
import { TextField } from '../ui/input';
import { useToast } from '../ui/toast';

const empty = { currentPassword: '', newPassword: '', confirm: '' };

/** The form's state: the three values as typed, field errors, and the change (which clears the form). */
function usePasswordForm() {
  const change = useChangePassword();
  const toast = useToast();
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<FieldErrors>({});
  const set = (field: keyof typeof empty) => (event: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [field]: event.target.value }));

  const submit = () => {
    const parsed = validate(changePasswordFormSchema, values);
    if (!parsed.ok) return setErrors(parsed.errors);
    setErrors({});
    change.mutate(
      { currentPassword: parsed.data.currentPassword, newPassword: parsed.data.newPassword },
      {
        onSuccess: () => {
          setValues(empty);
          toast('Password changed; your other sessions were signed out');
        },
        onError: (error) => setErrors(fieldErrorsFromApi(error, ['currentPassword', 'newPassword']) ?? {}),
      },
    );
  };
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submit();
  };
  return { change, values, errors, set, onSubmit };
}

export function PasswordCard() {
  const { change, values, errors, set, onSubmit } = usePasswordForm();
  const fieldError = Object.values(errors).some(Boolean);
  return (
    <Card aria-label="Password">
      <CardHeader
        title="Password"
        description="Changing it signs you out on every other browser; this one stays signed in. Access tokens keep working: if someone else may know the password, revoke them below too."
      />
      <form noValidate aria-label="Change password" onSubmit={onSubmit}>
        <div className="grid gap-4 px-5 py-5 md:grid-cols-3">
          <TextField
            label="Current password"
            type="password"
            autoComplete="current-password"
            value={values.currentPassword}
            onChange={set('currentPassword')}
            error={errors.currentPassword}
          />
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            value={values.newPassword}
            onChange={set('newPassword')}
            error={errors.newPassword}
            hint="At least 10 characters."
          />
          <TextField
            label="Repeat the new password"
            type="password"
            autoComplete="new-password"
            value={values.confirm}
            onChange={set('confirm')}
            error={errors.confirm}
          />
          {!fieldError && <ErrorAlert error={change.error} className="md:col-span-3" />}
        </div>
        <CardFooter>
          <span />
          <Button type="submit" size="sm" variant="primary" loading={change.isPending} disabled={!values.currentPassword || !values.newPassword}>
            Change password
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
