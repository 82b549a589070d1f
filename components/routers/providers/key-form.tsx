'use client';
// The key form of "Add provider": a cloud-browser vendor (adapter-one or adapter-two), its API
// key with a "Verify key" check that starts no browser, the adapter's options, routing fields.
import { useState, type Dispatch, type SetStateAction } from 'react';
import { isApiError } from '@/lib/client/api-fetch';
import { validate, type FieldErrors } from '@/lib/client/forms';
import { useVerifyKey, type Provider } from '@/lib/client/providers';
import { createProviderSchema, verifyKeySchema, type AdapterKind } from '@/lib/providers/schemas';
import { Button } from '../../ui/button';
import { Input } from '../../ui/input';
import { KeyIcon } from '../../ui/icons';
import { Segmented } from '../../ui/tabs';
import { CheckedField, CheckResult, routingInput, useAddProviderForm, without } from './form-fields';
import { defaultOptions, optionsInput, VendorOptions } from './vendor-options';

export const adapters: Record<AdapterKind, { label: string; description: string }> = {
  'adapter-one': { label: 'Adapter one', description: 'Kernel-style browsers API. A disconnected browser is kept 15 minutes for a reconnect.' },
  'adapter-two': { label: 'Adapter two', description: 'Browser Use-style sessions. Stopped on disconnect, so unused prepaid time is refunded.' },
};

/** The fields the server's validation errors may name. */
const FIELDS = [
  'slug',
  'name',
  'adapterKind',
  'credentials.apiKey',
  'options.region',
  'options.stealth',
  'options.timeoutSeconds',
  'options.timeoutMinutes',
  'options.proxyCountryCode',
  'priority',
  'weight',
  'maxConcurrent',
  'profile',
];

/**
 * The vendor and its API key, with the "Verify key" check that starts no browser: a change of
 * either makes the vendor's last verdict stale.
 */
function useVendorKey(routerId: string, setErrors: Dispatch<SetStateAction<FieldErrors>>) {
  const verify = useVerifyKey(routerId);
  const [adapterKind, setAdapterKind] = useState<AdapterKind>('adapter-one');
  const [apiKey, setApiKey] = useState('');

  const runVerify = () => {
    const parsed = validate(verifyKeySchema, { adapterKind, credentials: { apiKey } });
    if (!parsed.ok) return setErrors(parsed.errors);
    setErrors({});
    verify.mutate(parsed.data);
  };

  const changeKey = (apply: () => void) => {
    apply();
    if (verify.data || verify.error) verify.reset();
  };
  const chooseVendor = (kind: AdapterKind) => changeKey(() => setAdapterKind(kind));
  const changeApiKey = (value: string) =>
    changeKey(() => {
      setApiKey(value);
      setErrors(without('credentials.apiKey'));
    });
  return { verify, adapterKind, apiKey, setApiKey, runVerify, chooseVendor, changeApiKey };
}

export function useKeyForm(routerId: string, onAdded: (provider: Provider) => void) {
  const form = useAddProviderForm(routerId, onAdded);
  const { slug, name, routing, errors, setErrors } = form;
  const { verify, adapterKind, apiKey, setApiKey, runVerify, chooseVendor, changeApiKey } = useVendorKey(routerId, setErrors);
  const [options, setOptions] = useState(defaultOptions);

  const submit = () => {
    const input = {
      adapterKind,
      slug: slug.trim(),
      ...(name.trim() ? { name: name.trim() } : {}),
      credentials: { apiKey },
      options: optionsInput(adapterKind, options),
      ...routingInput(routing),
    };
    const parsed = validate(createProviderSchema, input);
    if (!parsed.ok) return setErrors(parsed.errors);
    setErrors({});
    form.send(parsed.data, FIELDS);
  };

  const content = (
    <>
      <VendorPicker value={adapterKind} onChange={chooseVendor} />
      {form.nameFields({ slugPlaceholder: adapterKind === 'adapter-one' ? 'kernel-us' : 'browser-use', namePlaceholder: adapters[adapterKind].label })}
      <KeyField apiKey={apiKey} error={errors['credentials.apiKey']} verify={verify} onVerify={runVerify} onChange={changeApiKey} />
      <VendorOptions
        kind={adapterKind}
        values={options}
        errors={errors}
        onChange={(change) => {
          setOptions((o) => ({ ...o, ...change }));
          for (const field of Object.keys(change)) setErrors(without(`options.${field}`));
        }}
      />
      {form.routingFields}
    </>
  );

  const reset = () => {
    form.reset();
    setApiKey('');
    setOptions(defaultOptions);
    verify.reset();
  };
  return { content, submit, reset, pending: form.pending, error: form.error };
}

/** The vendors side by side, each with what it does. */
function VendorPicker({ value, onChange }: { value: AdapterKind; onChange: (kind: AdapterKind) => void }) {
  return (
    <Segmented<AdapterKind>
      label="Vendor"
      value={value}
      onChange={onChange}
      options={(Object.keys(adapters) as AdapterKind[]).map((kind) => ({
        value: kind,
        label: adapters[kind].label,
        description: adapters[kind].description,
      }))}
    />
  );
}

interface KeyFieldProps {
  apiKey: string;
  error: string | undefined;
  verify: ReturnType<typeof useVerifyKey>;
  onChange: (apiKey: string) => void;
  onVerify: () => void;
}

/** The API key with its "Verify key" button and what the vendor said. */
function KeyField({ apiKey, error, verify, onChange, onVerify }: KeyFieldProps) {
  return (
    <CheckedField
      label="API key"
      htmlFor="provider-api-key"
      error={error}
      hint="Checked with the vendor before saving, without starting a browser. Stored encrypted, never shown again."
      result={verify.isPending || verify.data || verify.error ? <VerifyResult verify={verify} /> : null}
      input={
        <Input
          id="provider-api-key"
          type="password"
          value={apiKey}
          onChange={(e) => onChange(e.target.value)}
          invalid={Boolean(error)}
          autoComplete="off"
          spellCheck={false}
          className="font-mono text-[13px]"
        />
      }
      check={
        <Button onClick={onVerify} loading={verify.isPending} disabled={!apiKey.trim()}>
          {!verify.isPending && <KeyIcon />}
          Verify key
        </Button>
      }
    />
  );
}

function VerifyResult({ verify }: { verify: ReturnType<typeof useVerifyKey> }) {
  return verify.isPending ? (
    <CheckResult state="pending">Asking the vendor about this key…</CheckResult>
  ) : verify.data ? (
    <CheckResult state="ok" testId="verify-result">
      Key accepted by {verify.data.provider}.
    </CheckResult>
  ) : isApiError(verify.error, 'provider_rejected_key') ? (
    <CheckResult state="failed" testId="verify-result">
      The vendor rejected this key: {verify.error.message}
    </CheckResult>
  ) : verify.error ? (
    <CheckResult state="failed" testId="verify-result">
      {isApiError(verify.error, 'provider_unreachable') ? "Couldn't reach the vendor: " : ''}
      {(verify.error as Error).message}
    </CheckResult>
  ) : null;
}
