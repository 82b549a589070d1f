'use client';
// Create an empty profile (owner/admin): a slug scripts connect with, and a name people read.
import { useState } from 'react';
import { useCreateProfile, type Profile } from '@/lib/client/profiles';
import { validate, type FieldErrors } from '@/lib/client/forms';
import { createProfileSchema } from '@/lib/profiles/schemas';
import { ErrorAlert } from '../ui/alert';
import { FormDialog } from '../ui/dialog';
import { ProfileNameFields, profileErrorsFromApi, withoutError } from './profile-name-fields';

const FIELDS = ['slug', 'name'] as const;

export function CreateProfileDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (profile: Profile) => void }) {
  return open ? <CreateProfileForm onClose={onClose} onCreated={onCreated} /> : null;
}

function CreateProfileForm({ onClose, onCreated }: { onClose: () => void; onCreated: (profile: Profile) => void }) {
  const create = useCreateProfile();
  const [values, setValues] = useState({ slug: '', name: '' });
  const [errors, setErrors] = useState<FieldErrors>({});

  const submit = () => {
    const parsed = validate(createProfileSchema, { slug: values.slug.trim(), name: values.name.trim() || values.slug.trim() });
    if (!parsed.ok) return setErrors(parsed.errors);
    setErrors({});
    create.mutate(parsed.data, { onSuccess: onCreated, onError: (error) => setErrors(profileErrorsFromApi(error, FIELDS) ?? {}) });
  };

  return (
    <FormDialog
      open
      onClose={onClose}
      title="Create profile"
      description="An empty profile: the first session that connects with it and logs in saves its cookies and local storage."
      onSubmit={submit}
      submitLabel="Create profile"
      pending={create.isPending}
    >
      <ProfileNameFields
        values={values}
        errors={errors}
        onChange={(field, value) => {
          setErrors((e) => withoutError(e, field));
          setValues((v) => ({ ...v, [field]: value }));
        }}
        autoFocus
      />
      {!profileErrorsFromApi(create.error, FIELDS) && <ErrorAlert error={create.error} />}
    </FormDialog>
  );
}
