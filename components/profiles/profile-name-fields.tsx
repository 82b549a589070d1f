'use client';
// The slug and name of a new profile, and where the server's refusals land, shared by the create and import dialogs.
import { errorMessage, isApiError } from '@/lib/client/api-fetch';
import { fieldErrorsFromApi, type FieldErrors } from '@/lib/client/forms';
import { TextField } from '../ui/input';

export interface ProfileNameValues {
  slug: string;
  name: string;
}

export function ProfileNameFields({
  values,
  errors,
  onChange,
  autoFocus,
}: {
  values: ProfileNameValues;
  errors: FieldErrors;
  onChange: (field: keyof ProfileNameValues, value: string) => void;
  autoFocus?: boolean;
}) {
  return (
    <>
      <TextField
        label="Slug"
        value={values.slug}
        onChange={(e) => onChange('slug', e.target.value)}
        error={errors.slug}
        hint={
          <>
            Scripts connect with <code className="font-mono text-[12px]">profile={values.slug.trim() || '<slug>'}</code>. Letters, digits, dots, underscores and
            hyphens; up to 64.
          </>
        }
        placeholder="shop-login"
        maxLength={64}
        className="font-mono text-[13px]"
        spellCheck={false}
        autoComplete="off"
        autoFocus={autoFocus}
      />
      <TextField
        label="Name"
        value={values.name}
        onChange={(e) => onChange('name', e.target.value)}
        error={errors.name}
        hint="For people; leave empty to use the slug."
        placeholder={values.slug.trim() || 'Shop (logged in)'}
        maxLength={100}
        autoComplete="off"
      />
    </>
  );
}

/** The errors without the one of a field just edited: an error stays until its field changes. */
export function withoutError(errors: FieldErrors, field: string): FieldErrors {
  return Object.fromEntries(Object.entries(errors).filter(([key]) => key.split('.')[0] !== field));
}

/**
 * The server's refusal placed on a field: its validation details, a taken slug (409) on the slug,
 * a state over the size limits (413) on the file when the form has one. Null for the rest (shown
 * as an alert).
 */
export function profileErrorsFromApi(error: unknown, fields: readonly string[]): FieldErrors | null {
  const placed = fieldErrorsFromApi(error, fields);
  if (placed) return placed;
  if (isApiError(error, 'conflict')) return { slug: errorMessage(error) };
  if (fields.includes('storageState') && (isApiError(error, 'payload_too_large') || isApiError(error, 'profile_storage_cap_exceeded')))
    return { storageState: errorMessage(error) };
  return null;
}
