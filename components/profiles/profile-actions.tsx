'use client';
// What owners and admins do to a profile from its page: rename, export (a .json download made in
// the browser from the API's answer), delete.
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { fieldErrorsFromApi, validate, type FieldErrors } from '@/lib/client/forms';
import { useDeleteProfile, useExportProfile, useRenameProfile, type ExportFormat, type Profile } from '@/lib/client/profiles';
import { updateProfileSchema } from '@/lib/profiles/schemas';
import { Alert, ErrorAlert } from '../ui/alert';
import { Button } from '../ui/button';
import { Card, CardBody, CardHeader } from '../ui/card';
import { FormDialog } from '../ui/dialog';
import { DangerCard } from '../ui/danger-card';
import { TextField } from '../ui/input';
import { useToast } from '../ui/toast';

const formats: Array<{ format: ExportFormat; label: string; description: string }> = [
  { format: 'playwright', label: 'Export Playwright storageState', description: 'For newContext({ storageState }): cookies and local storage per origin.' },
  { format: 'native', label: 'Export native', description: 'The saved state as stored, IndexedDB included; can be given back to POST /v1/profiles.' },
];

/** Hands the browser a file through a blob URL, as a download. */
function download(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The download has taken its copy once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function ExportCard({ profile, canManage }: { profile: Profile; canManage: boolean }) {
  const exportProfile = useExportProfile();
  return (
    <Card aria-label="Export">
      <CardHeader title="Export" description="Download the current state as a JSON file. It holds live login cookies: keep it like a password." />
      <CardBody className="space-y-3">
        {canManage ? (
          <>
            {formats.map(({ format, label, description }) => (
              <div key={format} className="flex flex-wrap items-center justify-between gap-3">
                <p className="min-w-0 text-[13px] text-zinc-500">{description}</p>
                <Button
                  size="sm"
                  loading={exportProfile.isPending && exportProfile.variables?.format === format}
                  onClick={() =>
                    exportProfile.mutate(
                      { slug: profile.slug, format },
                      { onSuccess: (file) => download(file.blob, file.fileName ?? `${profile.slug}.${format}.json`) },
                    )
                  }
                >
                  {label}
                </Button>
              </div>
            ))}
            <ErrorAlert error={exportProfile.error} />
          </>
        ) : (
          <Alert tone="info">Only owners and admins can export a profile: the file carries the logins it holds.</Alert>
        )}
      </CardBody>
    </Card>
  );
}

export function RenameDialog({ profile, open, onClose }: { profile: Profile; open: boolean; onClose: () => void }) {
  return open ? <RenameForm profile={profile} onClose={onClose} /> : null;
}

function RenameForm({ profile, onClose }: { profile: Profile; onClose: () => void }) {
  const rename = useRenameProfile();
  const toast = useToast();
  const [name, setName] = useState(profile.name);
  const [errors, setErrors] = useState<FieldErrors>({});
  const submit = () => {
    const parsed = validate(updateProfileSchema, { name });
    if (!parsed.ok) return setErrors(parsed.errors);
    rename.mutate(
      { slug: profile.slug, name: parsed.data.name },
      {
        onSuccess: (saved) => {
          onClose();
          toast(`Renamed to “${saved.name}”`);
        },
        onError: (error) => setErrors(fieldErrorsFromApi(error, ['name']) ?? {}),
      },
    );
  };
  return (
    <FormDialog
      open
      onClose={onClose}
      title="Rename profile"
      description={
        <>
          The slug stays <code className="font-mono text-[12px]">{profile.slug}</code>: scripts keep connecting with it.
        </>
      }
      onSubmit={submit}
      submitLabel="Save name"
      pending={rename.isPending}
    >
      <TextField
        label="Name"
        value={name}
        onChange={(e) => {
          setErrors({});
          setName(e.target.value);
        }}
        error={errors.name}
        maxLength={100}
        autoComplete="off"
        autoFocus
      />
      {!fieldErrorsFromApi(rename.error, ['name']) && <ErrorAlert error={rename.error} />}
    </FormDialog>
  );
}

export function DeleteProfileCard({ profile }: { profile: Profile }) {
  const remove = useDeleteProfile();
  const navigate = useRouter();
  const toast = useToast();
  return (
    <DangerCard
      title="Delete profile"
      description="Deletes the profile and every version of it. A script that connects with it afterwards starts an empty profile of the same slug."
      action="Delete profile"
      confirm={{
        title: `Delete “${profile.name}”?`,
        description: 'This cannot be undone: the saved logins are gone. Export it first to keep a copy.',
        confirmLabel: 'Delete profile',
        onConfirm: () => remove.mutateAsync(profile.slug),
        onDone: () => {
          toast(`Deleted “${profile.name}”`);
          navigate.push('/profiles');
        },
      }}
    />
  );
}
