'use client';
// The router's name and description.
import { useState } from 'react';
import { fieldErrorsFromApi, validate, type FieldErrors } from '@/lib/client/forms';
import { useActiveWorkspace } from '@/lib/client/me';
import { useUpdateRouter, type Router } from '@/lib/client/routers';
import { updateRouterSchema } from '@/lib/routers/schemas';
import { ErrorAlert } from '../../ui/alert';
import { Button } from '../../ui/button';
import { Card, CardFooter, CardHeader } from '../../ui/card';
import { Field, Textarea, TextField } from '../../ui/input';
import { useToast } from '../../ui/toast';

/** The form's state: the name and description as typed, what changed, field errors and save. */
function useGeneralForm(router: Router) {
  const update = useUpdateRouter(router.id);
  const toast = useToast();
  const [name, setName] = useState(router.name);
  const [description, setDescription] = useState(router.description ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const changes = {
    ...(name !== router.name ? { name } : {}),
    ...(description !== (router.description ?? '') ? { description: description.trim() ? description : null } : {}),
  };
  const dirty = Object.keys(changes).length > 0;

  const submit = () => {
    const parsed = validate(updateRouterSchema, changes);
    if (!parsed.ok) return setErrors(parsed.errors);
    setErrors({});
    update.mutate(parsed.data, {
      onSuccess: (saved) => {
        setName(saved.name);
        setDescription(saved.description ?? '');
        toast('Router saved');
      },
      onError: (error) => setErrors(fieldErrorsFromApi(error, ['name', 'description']) ?? {}),
    });
  };
  return { update, name, setName, description, setDescription, errors, dirty, submit };
}

export function GeneralCard({ router }: { router: Router }) {
  const { update, name, setName, description, setDescription, errors, dirty, submit } = useGeneralForm(router);
  const { canManage } = useActiveWorkspace();

  return (
    <Card aria-label="General">
      <CardHeader
        title="General"
        description={
          <>
            The slug <code className="font-mono text-[12px] text-zinc-700">{router.slug}</code> and id{' '}
            <code className="font-mono text-[12px] text-zinc-700">{router.id}</code> never change.
          </>
        }
      />
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <div className="grid gap-4 px-5 py-5 md:grid-cols-2">
          <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} error={errors.name} maxLength={100} disabled={!canManage} />
          <DescriptionField value={description} error={errors.description} disabled={!canManage} onChange={setDescription} />
          {!errors.name && !errors.description && <ErrorAlert error={update.error} className="md:col-span-2" />}
        </div>
        {canManage && (
          <CardFooter>
            <span />
            <Button type="submit" size="sm" variant="primary" loading={update.isPending} disabled={!dirty}>
              Save
            </Button>
          </CardFooter>
        )}
      </form>
    </Card>
  );
}

/** The router's description, optional, up to 500 characters. */
function DescriptionField({
  value,
  error,
  disabled,
  onChange,
}: {
  value: string;
  error: string | undefined;
  disabled: boolean;
  onChange: (text: string) => void;
}) {
  return (
    <Field
      label={
        <>
          Description <span className="font-normal text-zinc-400">(optional)</span>
        </>
      }
      htmlFor="router-settings-description"
      error={error}
    >
      <Textarea
        id="router-settings-description"
        rows={2}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        maxLength={500}
        disabled={disabled}
        invalid={Boolean(error)}
      />
    </Field>
  );
}
