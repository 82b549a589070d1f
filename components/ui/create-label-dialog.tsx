'use client';
// Create something that is only a label and a secret (an access token, a router key): one Label
// field, then the caller shows the secret. The component stays mounted while closed, so closing
// forgets the label, its error and the request's last result for the next opening.
import { useState, type ReactNode } from 'react';
import type { UseMutationResult } from '@tanstack/react-query';
import { fieldErrorsFromApi, type FieldErrors, type Validated } from '@/lib/client/forms';
import { ErrorAlert } from './alert';
import { FormDialog } from './dialog';
import { TextField } from './input';

export interface CreateLabelDialogProps<T> {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description: ReactNode;
  submitLabel: string;
  placeholder: string;
  /** Checks the label with the server's own schema, so the field says what the server would. */
  parse: (label: string) => Validated<{ label: string }>;
  mutation: UseMutationResult<T, Error, { label: string }>;
  /** The created thing, with its secret; the dialog has already cleared itself. */
  onCreated: (created: T) => void;
}

export function CreateLabelDialog<T>({ open, onClose, title, description, submitLabel, placeholder, parse, mutation, onCreated }: CreateLabelDialogProps<T>) {
  const [label, setLabel] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});

  const close = () => {
    setLabel('');
    setErrors({});
    mutation.reset();
    onClose();
  };
  const submit = () => {
    const parsed = parse(label);
    if (!parsed.ok) return setErrors(parsed.errors);
    setErrors({});
    mutation.mutate(
      { label: parsed.data.label },
      {
        onSuccess: (created) => {
          setLabel('');
          mutation.reset();
          onCreated(created);
        },
        onError: (error) => setErrors(fieldErrorsFromApi(error, ['label']) ?? {}),
      },
    );
  };

  return (
    <FormDialog open={open} onClose={close} title={title} description={description} onSubmit={submit} submitLabel={submitLabel} pending={mutation.isPending}>
      <TextField
        label="Label"
        value={label}
        onChange={(e) => setLabel(e.target.value)}
        error={errors.label}
        placeholder={placeholder}
        maxLength={100}
        autoFocus
      />
      {!errors.label && <ErrorAlert error={mutation.error} />}
    </FormDialog>
  );
}
