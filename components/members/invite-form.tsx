'use client';
// Invite someone to the workspace by e-mail, as a member or an admin; the toast says where the link went.
import { useId, useState } from 'react';
import { createInvitationSchema } from '@/lib/invitations/schemas';
import { useCreateInvitation } from '@/lib/client/invitations';
import { fieldErrorsFromApi, validate, type FieldErrors } from '@/lib/client/forms';
import { ErrorAlert } from '../ui/alert';
import { Button } from '../ui/button';
import { Field, Input, Select } from '../ui/input';
import { useInvitationSentToast } from './invitation-sent';

/** The form's state: the address and role as typed, field errors, and sending (which clears the address). */
function useInviteForm() {
  const create = useCreateInvitation();
  const toastSent = useInvitationSentToast();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<'admin' | 'member'>('member');
  const [errors, setErrors] = useState<FieldErrors>({});
  const emailId = useId();
  const roleId = useId();

  const submit = () => {
    const parsed = validate(createInvitationSchema, { email, role });
    if (!parsed.ok) return setErrors(parsed.errors);
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: (invitation) => {
        setEmail('');
        toastSent(invitation);
      },
      onError: (error) => setErrors(fieldErrorsFromApi(error, ['email', 'role']) ?? {}),
    });
  };
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submit();
  };
  return { create, email, setEmail, role, setRole, errors, emailId, roleId, onSubmit };
}

export function InviteForm() {
  const { create, email, setEmail, role, setRole, errors, emailId, roleId, onSubmit } = useInviteForm();
  return (
    <form noValidate aria-label="Invite someone" onSubmit={onSubmit} className="space-y-3 border-b border-zinc-100 bg-zinc-50/50 px-5 py-4">
      <div className="flex flex-wrap items-start gap-3">
        <Field label="E-mail address" htmlFor={emailId} error={errors.email} className="min-w-60 flex-1">
          <Input
            id={emailId}
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            placeholder="teammate@company.com"
            invalid={Boolean(errors.email)}
            autoComplete="off"
          />
        </Field>
        <Field label="Role" htmlFor={roleId} error={errors.role} className="w-36">
          <Select id={roleId} value={role} onChange={(e) => setRole(e.target.value as 'admin' | 'member')}>
            <option value="member">Member</option>
            <option value="admin">Admin</option>
          </Select>
        </Field>
        <div className="pt-[26px]">
          <Button type="submit" variant="primary" loading={create.isPending}>
            Send invitation
          </Button>
        </div>
      </div>
      <p className="text-[13px] text-zinc-500">
        Admins can change configuration and manage members; members can use the workspace. Links are valid for 7 days.
      </p>
      {!errors.email && !errors.role && <ErrorAlert error={create.error} />}
    </form>
  );
}
