'use client';
// Pieces the add and edit dialogs share: number fields as the schema wants them, the routing
// fields every provider has, how a server error lands on a field, a check's inline result, and
// the state both add forms (address and key) hold.
import { useState, type ReactNode } from 'react';
import { isApiError } from '@/lib/client/api-fetch';
import { fieldErrorsFromApi, type FieldErrors } from '@/lib/client/forms';
import { useCreateProvider, type Provider } from '@/lib/client/providers';
import { PRIORITY_DEFAULT, WEIGHT_DEFAULT, type CreateProviderInput } from '@/lib/providers/schemas';
import { cn } from '../../ui/cn';
import { CheckCircleIcon, XCircleIcon, AlertTriangleIcon } from '../../ui/icons';
import { Field, TextField } from '../../ui/input';
import { Spinner } from '../../ui/spinner';

/** '' → undefined (the schema's default applies); a number when the text is one; else the text, so the schema words the error. */
export function numberField(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : trimmed;
}

const sentence = (message: string) => message.charAt(0).toUpperCase() + message.slice(1);

/**
 * Puts a failed add or edit next to the field it is about: validation errors by field name,
 * 409 on the slug, an unreachable address on the URL, a rejected key on the key. Anything else
 * (503 calibrating, 502 from a vendor, 500) returns null and shows in the dialog's alert.
 */
export function providerErrorFields(error: unknown, fields: readonly string[], addressField?: string): FieldErrors | null {
  const fromApi = fieldErrorsFromApi(error, fields);
  if (fromApi) return fromApi;
  if (isApiError(error, 'conflict')) return { slug: sentence(error.message) };
  if (isApiError(error, 'provider_rejected_key')) return { 'credentials.apiKey': sentence(error.message) };
  if (addressField && isApiError(error, 'provider_unreachable')) return { [addressField]: sentence(error.message) };
  return null;
}

/** Clears one field's error once the user edits that field. */
export const without =
  (field: string) =>
  (errors: FieldErrors): FieldErrors =>
    errors[field] ? { ...errors, [field]: undefined } : errors;

export interface RoutingValues {
  priority: string;
  weight: string;
  maxConcurrent: string;
  profile: string;
}

export const defaultRouting: RoutingValues = { priority: String(PRIORITY_DEFAULT), weight: String(WEIGHT_DEFAULT), maxConcurrent: '', profile: '' };

interface RoutingFieldsProps {
  values: RoutingValues;
  onChange: (values: RoutingValues, field: keyof RoutingValues) => void;
  errors: FieldErrors;
  profileHint?: ReactNode;
}

/** What the three routing numbers (priority, weight, max concurrent) all take: a whole number from 1 to 1000. */
const ROUTING_NUMBER = { type: 'number', inputMode: 'numeric', min: 1, max: 1000 } as const;

export function RoutingFields({ values, onChange, errors, profileHint }: RoutingFieldsProps) {
  const set = (field: keyof RoutingValues) => (event: { target: { value: string } }) => onChange({ ...values, [field]: event.target.value }, field);
  return (
    <fieldset className="space-y-3">
      <legend className="mb-2 text-[13px] font-medium text-zinc-900">Routing</legend>
      <div className="grid grid-cols-3 gap-3">
        <TextField label="Priority" {...ROUTING_NUMBER} value={values.priority} onChange={set('priority')} error={errors.priority} hint="1–1000, lower first" />
        <TextField label="Weight" {...ROUTING_NUMBER} value={values.weight} onChange={set('weight')} error={errors.weight} hint="1–1000" />
        <TextField
          label="Max concurrent"
          {...ROUTING_NUMBER}
          value={values.maxConcurrent}
          onChange={set('maxConcurrent')}
          error={errors.maxConcurrent}
          placeholder="No limit"
          hint="1–1000 or empty"
        />
      </div>
      <TextField
        label={
          <>
            Profile <span className="font-normal text-zinc-400">(optional)</span>
          </>
        }
        value={values.profile}
        onChange={set('profile')}
        error={errors.profile}
        placeholder="Takes every session"
        hint={profileHint ?? 'Pin to one saved profile: only sessions using it come here.'}
        spellCheck={false}
        autoComplete="off"
      />
    </fieldset>
  );
}

export function routingInput(values: RoutingValues) {
  const priority = numberField(values.priority);
  const weight = numberField(values.weight);
  const maxConcurrent = numberField(values.maxConcurrent);
  return {
    ...(priority !== undefined ? { priority } : {}),
    ...(weight !== undefined ? { weight } : {}),
    ...(maxConcurrent !== undefined ? { maxConcurrent } : {}),
    ...(values.profile.trim() ? { profile: values.profile.trim() } : {}),
  };
}

/** The line under a Test or Verify button. */
export function CheckResult({ state, children, testId }: { state: 'pending' | 'ok' | 'failed' | 'warning'; children: ReactNode; testId?: string }) {
  const Icon = state === 'ok' ? CheckCircleIcon : state === 'failed' ? XCircleIcon : AlertTriangleIcon;
  return (
    <p
      role="status"
      data-testid={testId}
      className={cn(
        'flex items-start gap-1.5 text-[13px]',
        state === 'ok' && 'text-emerald-700',
        state === 'failed' && 'text-red-600',
        state === 'warning' && 'text-amber-800',
        state === 'pending' && 'text-zinc-500',
      )}
    >
      {state === 'pending' ? <Spinner className="mt-0.5 size-3.5 shrink-0" /> : <Icon className="mt-0.5 size-3.5 shrink-0" />}
      <span className="min-w-0">{children}</span>
    </p>
  );
}

/**
 * What the address form and the key form of "Add provider" both hold: slug, name, routing, the
 * field errors and the create request. Each form adds its own fields and builds its own input.
 */
export function useAddProviderForm(routerId: string, onAdded: (provider: Provider) => void) {
  const create = useCreateProvider(routerId);
  const [slug, setSlug] = useState('');
  const [name, setName] = useState('');
  const [routing, setRouting] = useState<RoutingValues>(defaultRouting);
  const [errors, setErrors] = useState<FieldErrors>({});
  // The server's answer landed on a field: the dialog's alert does not repeat it, even once that field is edited.
  const [placed, setPlaced] = useState(false);

  /** Creates the provider; a failure about one of `fields` lands on it (see providerErrorFields). */
  const send = (input: CreateProviderInput, fields: readonly string[], addressField?: string) =>
    create.mutate(input, {
      onSuccess: onAdded,
      onError: (error) => {
        const found = providerErrorFields(error, fields, addressField);
        setErrors(found ?? {});
        setPlaced(found !== null);
      },
    });

  const changeSlug = (value: string) => {
    setSlug(value);
    setErrors(without('slug'));
  };
  const changeName = (value: string) => {
    setName(value);
    setErrors(without('name'));
  };
  const nameFields = (placeholders: NamePlaceholders) => (
    <NameFields {...placeholders} slug={slug} name={name} errors={errors} onSlugChange={changeSlug} onNameChange={changeName} />
  );

  const routingFields = (
    <RoutingFields
      values={routing}
      errors={errors}
      onChange={(values, field) => {
        setRouting(values);
        setErrors(without(field));
      }}
    />
  );

  const reset = () => {
    setSlug('');
    setName('');
    setRouting(defaultRouting);
    setErrors({});
    setPlaced(false);
    create.reset();
  };
  return { slug, name, routing, errors, setErrors, send, nameFields, routingFields, reset, pending: create.isPending, error: placed ? null : create.error };
}

interface NamePlaceholders {
  slugPlaceholder: string;
  /** Shown in an empty name while the slug is empty too. */
  namePlaceholder: string;
  autoFocus?: boolean;
}

interface NameFieldsProps extends NamePlaceholders {
  slug: string;
  name: string;
  errors: FieldErrors;
  onSlugChange: (slug: string) => void;
  onNameChange: (name: string) => void;
}

/** Slug and the optional name side by side; an empty name shows the slug it will default to. */
function NameFields({ slugPlaceholder, namePlaceholder, autoFocus, slug, name, errors, onSlugChange, onNameChange }: NameFieldsProps) {
  return (
    <div className="grid grid-cols-2 gap-3">
      <TextField
        label="Slug"
        value={slug}
        onChange={(e) => onSlugChange(e.target.value)}
        error={errors.slug}
        placeholder={slugPlaceholder}
        hint="Letters, digits, single hyphens"
        maxLength={64}
        spellCheck={false}
        autoComplete="off"
        autoFocus={autoFocus}
      />
      <TextField
        label={
          <>
            Name <span className="font-normal text-zinc-400">(optional)</span>
          </>
        }
        value={name}
        onChange={(e) => onNameChange(e.target.value)}
        error={errors.name}
        placeholder={slug || namePlaceholder}
        maxLength={100}
      />
    </div>
  );
}

interface CheckedFieldProps {
  label: string;
  htmlFor: string;
  error: string | undefined;
  /** Shown while there is no check result. */
  hint: ReactNode;
  /** The last check's line (CheckResult), or null before the first. */
  result: ReactNode;
  input: ReactNode;
  /** The button that runs the check. */
  check: ReactNode;
}

/** A field the server checks before saving (an address's Test, a key's Verify): its result takes the hint's place. */
export function CheckedField({ label, htmlFor, error, hint, result, input, check }: CheckedFieldProps) {
  return (
    <Field label={label} htmlFor={htmlFor} error={error} hint={!result && hint}>
      <div className="flex gap-2">
        {input}
        {check}
      </div>
      {!error && result}
    </Field>
  );
}
