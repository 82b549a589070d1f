'use client';
import { useState } from 'react';
import { createWorkspaceSchema } from '@/lib/workspaces/schemas';
import { fieldErrorsFromApi, validate, type FieldErrors } from '@/lib/client/forms';
import { useCreateWorkspace } from '@/lib/client/workspaces';
import { ErrorAlert } from '../ui/alert';
import { FormDialog } from '../ui/dialog';
import { TextField } from '../ui/input';
import { useToast } from '../ui/toast';

export function CreateWorkspaceDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return open ? <CreateWorkspaceForm onClose={onClose} /> : null;
}

// Mounted only while open, so every opening starts with an empty name and no earlier request.
function CreateWorkspaceForm({ onClose }: { onClose: () => void }) {
  const create = useCreateWorkspace();
  const toast = useToast();
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});

  const submit = () => {
    const parsed = validate(createWorkspaceSchema, { name });
    if (!parsed.ok) return setErrors(parsed.errors);
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: (workspace) => {
        toast(`Created ${workspace.name}`);
        onClose();
      },
      onError: (error) => setErrors(fieldErrorsFromApi(error, ['name']) ?? {}),
    });
  };

  return (
    <FormDialog
      open
      onClose={onClose}
      title="Create workspace"
      description="A workspace holds its own routers, providers, keys, members and wallet. You'll be its owner."
      onSubmit={submit}
      submitLabel="Create workspace"
      pending={create.isPending}
    >
      <TextField
        label="Workspace name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={errors.name}
        placeholder="Acme scraping"
        autoFocus
        maxLength={100}
      />
      {!errors.name && <ErrorAlert error={create.error} />}
    </FormDialog>
  );
}
