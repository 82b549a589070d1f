'use client';
// Import a Playwright storageState (`context.storageState({ path })`) as a new profile, any member.
// The file is read and checked here first (JSON, then the storageState shape); what only the
// server knows (a taken slug, the size limits) comes back on the same fields.
import { useId, useState } from 'react';
import { useImportProfile, type Profile } from '@/lib/client/profiles';
import { clientInput } from '@/lib/api/validation';
import { validate, type FieldErrors } from '@/lib/client/forms';
import { importPlaywrightSchema } from '@/lib/profiles/schemas';
import { playwrightStateSchema, type PlaywrightState } from '@/lib/profiles/state';
import { ErrorAlert } from '../ui/alert';
import { FormDialog } from '../ui/dialog';
import { Field } from '../ui/input';
import { ProfileNameFields, profileErrorsFromApi, withoutError, type ProfileNameValues } from './profile-name-fields';

const FIELDS = ['slug', 'name', 'storageState'] as const;

type ReadFile = { name: string; state: PlaywrightState; summary: string } | null;

export function ImportProfileDialog({ open, onClose, onImported }: { open: boolean; onClose: () => void; onImported: (profile: Profile) => void }) {
  return open ? <ImportProfileForm onClose={onClose} onImported={onImported} /> : null;
}

/** The file's text as a storageState, or why it is not one. */
export function parseStorageState(text: string): { ok: true; state: PlaywrightState } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: 'This file is not JSON' };
  }
  const parsed = playwrightStateSchema.safeParse(json, clientInput);
  if (parsed.success) return { ok: true, state: parsed.data };
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length > 0 ? ` (at ${issue.path.join('.')})` : '';
  return { ok: false, error: `Not a Playwright storageState: ${issue.message}${where}` };
}

/**
 * The form's state and actions: the chosen file (read and checked on choice, its name suggesting
 * the slug), the name fields, their errors, and the import.
 */
function useImportProfileForm(onImported: (profile: Profile) => void) {
  const importProfile = useImportProfile();
  const [values, setValues] = useState({ slug: '', name: '' });
  const [file, setFile] = useState<ReadFile>(null);
  const [errors, setErrors] = useState<FieldErrors>({});

  const choose = async (chosen: File | undefined) => {
    setErrors((e) => withoutError(e, 'storageState'));
    setFile(null);
    if (!chosen) return;
    const result = parseStorageState(await chosen.text());
    if (!result.ok) return setErrors((e) => ({ ...e, storageState: result.error }));
    const { cookies, origins } = result.state;
    setFile({
      name: chosen.name,
      state: result.state,
      summary: `${cookies.length} ${cookies.length === 1 ? 'cookie' : 'cookies'}, ${origins.length} ${origins.length === 1 ? 'origin' : 'origins'}`,
    });
    // auth.json → slug "auth", unless one was typed.
    const stem = chosen.name
      .replace(/\.json$/i, '')
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .slice(0, 64);
    setValues((v) => (v.slug.trim() || !stem ? v : { ...v, slug: stem }));
  };

  const submit = () => {
    if (!file) return setErrors((e) => ({ ...e, storageState: e.storageState ?? 'Choose a storageState file' }));
    const parsed = validate(importPlaywrightSchema, { slug: values.slug.trim(), name: values.name.trim() || values.slug.trim(), storageState: file.state });
    if (!parsed.ok) return setErrors(parsed.errors);
    setErrors({});
    importProfile.mutate(parsed.data, { onSuccess: onImported, onError: (error) => setErrors(profileErrorsFromApi(error, FIELDS) ?? {}) });
  };

  const change = (field: keyof ProfileNameValues, value: string) => {
    setErrors((e) => withoutError(e, field));
    setValues((v) => ({ ...v, [field]: value }));
  };

  return { importProfile, values, file, errors, choose, submit, change };
}

function ImportProfileForm({ onClose, onImported }: { onClose: () => void; onImported: (profile: Profile) => void }) {
  const { importProfile, values, file, errors, choose, submit, change } = useImportProfileForm(onImported);
  const fileId = useId();

  return (
    <FormDialog
      open
      onClose={onClose}
      title="Import a storageState"
      description={
        <>
          A new profile from the file Playwright writes with <code className="font-mono text-[12px]">context.storageState(&#123; path &#125;)</code>: its
          cookies and local storage become the profile&apos;s first version.
        </>
      }
      onSubmit={submit}
      submitLabel="Import profile"
      pending={importProfile.isPending}
    >
      <Field
        label="storageState file"
        htmlFor={fileId}
        error={errors.storageState}
        hint={file ? `${file.name}: ${file.summary}` : 'A .json file with "cookies" and "origins".'}
      >
        <input
          id={fileId}
          type="file"
          accept="application/json,.json"
          aria-invalid={Boolean(errors.storageState) || undefined}
          onChange={(e) => void choose(e.target.files?.[0])}
          className="block w-full text-sm text-zinc-700 file:mr-3 file:rounded-md file:border file:border-zinc-300 file:bg-white file:px-2.5 file:py-1.5 file:text-[13px] file:font-medium file:text-zinc-800 hover:file:bg-zinc-50"
        />
      </Field>
      <ProfileNameFields values={values} errors={errors} onChange={change} />
      {!profileErrorsFromApi(importProfile.error, FIELDS) && <ErrorAlert error={importProfile.error} />}
    </FormDialog>
  );
}
