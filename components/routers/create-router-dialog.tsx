'use client';
// Create a router: name, optional slug and description. The answer carries the router's first
// key once; the dialog turns into its reveal, with a way straight to the Connect tab.
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { createRouterSchema } from '@/lib/routers/schemas';
import { slugify } from '@/lib/routers/slug';
import { isApiError } from '@/lib/client/api-fetch';
import { fieldErrorsFromApi, validate, type FieldErrors } from '@/lib/client/forms';
import { useCreateRouter, type CreatedRouter } from '@/lib/client/routers';
import { ErrorAlert } from '../ui/alert';
import { Button } from '../ui/button';
import { Dialog, FormDialog } from '../ui/dialog';
import { TerminalIcon } from '../ui/icons';
import { Field, Textarea, TextField } from '../ui/input';
import { SecretReveal } from '../ui/secret-reveal';
import { ROUTER_KEY_NOTICE } from './keys/keys-tab';

export function CreateRouterDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [created, setCreated] = useState<CreatedRouter | null>(null);
  const close = () => {
    setCreated(null);
    onClose();
  };
  if (created) return <CreatedRouterReveal router={created} onClose={close} />;
  return open ? <CreateRouterForm onClose={close} onCreated={setCreated} /> : null;
}

/** The form's values and errors, and the create request: a conflict lands on the slug. */
function useCreateRouterForm(onCreated: (router: CreatedRouter) => void) {
  const create = useCreateRouter();
  const [values, setValues] = useState({ name: '', slug: '', description: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const set = (field: keyof typeof values) => (event: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: event.target.value }));

  const submit = () => {
    const input = {
      name: values.name,
      ...(values.slug.trim() ? { slug: values.slug.trim() } : {}),
      ...(values.description.trim() ? { description: values.description } : {}),
    };
    const parsed = validate(createRouterSchema, input);
    if (!parsed.ok) return setErrors(parsed.errors);
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: onCreated,
      onError: (error) =>
        setErrors(
          fieldErrorsFromApi(error, ['name', 'slug', 'description']) ??
            (isApiError(error, 'conflict') ? { slug: error.message.charAt(0).toUpperCase() + error.message.slice(1) } : {}),
        ),
    });
  };
  return { create, values, errors, set, submit };
}

// Mounted only while open (the reveal replaces it), so every opening starts empty with no earlier request.
function CreateRouterForm({ onClose, onCreated }: { onClose: () => void; onCreated: (router: CreatedRouter) => void }) {
  const { create, values, errors, set, submit } = useCreateRouterForm(onCreated);
  const hasFieldError = Boolean(errors.name || errors.slug || errors.description);

  return (
    <FormDialog
      open
      onClose={onClose}
      title="Create router"
      description="A router is one connect address with its own providers, routing strategy and keys. It starts with one key."
      onSubmit={submit}
      submitLabel="Create router"
      pending={create.isPending}
    >
      <TextField label="Name" value={values.name} onChange={set('name')} error={errors.name} placeholder="Scraping fleet" maxLength={100} autoFocus />
      <SlugField name={values.name} value={values.slug} onChange={set('slug')} error={errors.slug} />
      <Field
        label={
          <>
            Description <span className="font-normal text-zinc-400">(optional)</span>
          </>
        }
        htmlFor="router-description"
        error={errors.description}
      >
        <Textarea
          id="router-description"
          value={values.description}
          onChange={set('description')}
          invalid={Boolean(errors.description)}
          rows={2}
          maxLength={500}
          placeholder="What connects through it"
        />
      </Field>
      {!hasFieldError && <ErrorAlert error={create.error} />}
    </FormDialog>
  );
}

interface SlugFieldProps {
  /** The router's name as typed: an empty slug is derived from it. */
  name: string;
  value: string;
  onChange: (event: { target: { value: string } }) => void;
  error: string | undefined;
}

/** The optional slug, showing the one an empty field derives from the name. */
function SlugField({ name, value, onChange, error }: SlugFieldProps) {
  const derived = name.trim() ? slugify(name) : '';
  return (
    <TextField
      label={
        <>
          Slug <span className="font-normal text-zinc-400">(optional)</span>
        </>
      }
      value={value}
      onChange={onChange}
      error={error}
      placeholder={derived || 'scraping-fleet'}
      hint={
        derived ? (
          <>
            Leave empty to use <code className="font-mono text-[12px] text-zinc-700">{derived}</code>. 2 to 40 lowercase letters, digits or hyphens.
          </>
        ) : (
          '2 to 40 lowercase letters, digits or hyphens; derived from the name when empty.'
        )
      }
      maxLength={40}
      spellCheck={false}
      autoComplete="off"
    />
  );
}

function CreatedRouterReveal({ router, onClose }: { router: CreatedRouter; onClose: () => void }) {
  const navigate = useRouter();
  return (
    <Dialog
      open
      size="lg"
      onClose={onClose}
      title={`Router “${router.name}” created`}
      description={
        <>
          Its first key, <span className="font-medium text-zinc-700">{router.apiKey.label}</span>, authenticates the connect URL. Copy it now, or open the
          Connect tab, which fills it into ready-to-run snippets.
        </>
      }
      footer={
        <>
          <Button
            onClick={() => {
              onClose();
              navigate.push(`/routers/${router.id}/providers`);
            }}
          >
            Done
          </Button>
          <Button
            variant="primary"
            onClick={() => {
              onClose();
              navigate.push(`/routers/${router.id}/connect`);
            }}
          >
            <TerminalIcon />
            Open Connect tab
          </Button>
        </>
      }
    >
      <SecretReveal label="Router key" value={router.apiKey.plaintextKey} notice={ROUTER_KEY_NOTICE}>
        While it is the router&apos;s newest live key: we keep that one encrypted for the Connect tab. If it leaks, rotate the keys on the Keys tab.
      </SecretReveal>
    </Dialog>
  );
}
