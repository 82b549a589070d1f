'use client';
// Who the user is: name (editable here), e-mail and id.
import { useState } from 'react';
import { fieldErrorsFromApi, validate, type FieldErrors } from '@/lib/client/forms';
import { useUpdateAccount, type Me } from '@/lib/client/me';
import { updateAccountSchema } from '@/lib/users/schemas';
import { Avatar } from '../ui/avatar';
import { ErrorAlert } from '../ui/alert';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardHeader, DescriptionList } from '../ui/card';
import { CopyButton } from '../ui/copy-button';
import { Input } from '../ui/input';
import { useToast } from '../ui/toast';

export function ProfileCard({ me }: { me: Me }) {
  const { user } = me;
  return (
    <Card aria-label="Profile">
      <CardHeader title="Profile" description="How you appear to the people in your workspaces." />
      <div className="flex items-center gap-4 border-b border-zinc-100 px-5 py-4">
        <Avatar name={user.name} className="size-12 text-sm" />
        <div className="min-w-0">
          <div className="truncate text-base font-semibold text-zinc-900" data-testid="profile-name">
            {user.name}
          </div>
          <div className="truncate text-sm text-zinc-500">{user.email}</div>
        </div>
      </div>
      <DescriptionList
        items={[
          { label: 'Name', value: <NameForm name={user.name} /> },
          {
            label: 'E-mail',
            value: (
              <span className="flex flex-wrap items-center gap-2">
                {user.email}
                {user.emailVerified ? <Badge tone="success">Verified</Badge> : <Badge tone="warning">Not verified</Badge>}
              </span>
            ),
          },
          { label: 'Workspaces', value: me.workspaces.length === 1 ? '1 workspace' : `${me.workspaces.length} workspaces` },
          {
            label: 'User ID',
            value: (
              <span className="flex items-center gap-2">
                <code className="truncate font-mono text-[13px] text-zinc-600">{user.id}</code>
                <CopyButton value={user.id} variant="ghost" label="Copy" />
              </span>
            ),
          },
        ]}
      />
    </Card>
  );
}

function NameForm({ name: saved }: { name: string }) {
  const update = useUpdateAccount();
  const toast = useToast();
  const [name, setName] = useState(saved);
  const [errors, setErrors] = useState<FieldErrors>({});
  const dirty = name.trim() !== saved;

  const submit = () => {
    const parsed = validate(updateAccountSchema, { name });
    if (!parsed.ok) return setErrors(parsed.errors);
    setErrors({});
    update.mutate(parsed.data, {
      onSuccess: ({ user }) => {
        setName(user.name);
        toast('Name saved');
      },
      onError: (error) => setErrors(fieldErrorsFromApi(error, ['name']) ?? {}),
    });
  };

  return (
    <form
      noValidate
      aria-label="Your name"
      className="space-y-1.5"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <div className="flex items-center gap-2">
        <Input
          aria-label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={100}
          autoComplete="name"
          invalid={Boolean(errors.name)}
          className="max-w-xs"
        />
        <Button type="submit" size="sm" loading={update.isPending} disabled={!dirty}>
          Save name
        </Button>
      </div>
      {errors.name && (
        <p className="text-[13px] text-red-600" role="alert">
          {errors.name}
        </p>
      )}
      {!errors.name && <ErrorAlert error={update.error} />}
    </form>
  );
}
