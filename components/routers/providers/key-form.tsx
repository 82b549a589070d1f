'use client';
// The key form of "Add provider": a cloud-browser vendor (adapter-one or adapter-two), its API
// key with a "Verify key" check that starts no browser, the adapter's options, routing fields.
import { useState } from 'react';
import { isApiError } from '@/lib/client/api-fetch';
import { validate, type FieldErrors } from '@/lib/client/forms';
import { useVerifyKey, type Provider } from '@/lib/client/providers';
import {
  ADAPTER_ONE_REGIONS,
  ADAPTER_ONE_TIMEOUT_SECONDS_DEFAULT,
  ADAPTER_TWO_TIMEOUT_MINUTES_DEFAULT,
  createProviderSchema,
  verifyKeySchema,
  type AdapterKind,
} from '@/lib/providers/schemas';
import { Button } from '../../ui/button';
import { Field, Input, Select, TextField } from '../../ui/input';
import { KeyIcon } from '../../ui/icons';
import { Segmented } from '../../ui/tabs';
import { Switch } from '../../ui/switch';
import { CheckedField, CheckResult, numberField, routingInput, useAddProviderForm, without } from './form-fields';

export const adapters: Record<AdapterKind, { label: string; description: string }> = {
  'adapter-one': { label: 'Adapter one', description: 'Kernel-style browsers API. A disconnected browser is kept 15 minutes for a reconnect.' },
  'adapter-two': { label: 'Adapter two', description: 'Browser Use-style sessions. Stopped on disconnect, so unused prepaid time is refunded.' },
};

/** The vendor options as typed (both vendors' fields: switching back keeps what was typed). */
interface VendorOptionValues {
  region: string;
  stealth: boolean;
  timeoutSeconds: string;
  timeoutMinutes: string;
  proxyCountryCode: string;
}

const defaultOptions: VendorOptionValues = {
  region: '',
  stealth: false,
  timeoutSeconds: String(ADAPTER_ONE_TIMEOUT_SECONDS_DEFAULT),
  timeoutMinutes: String(ADAPTER_TWO_TIMEOUT_MINUTES_DEFAULT),
  proxyCountryCode: '',
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

/** The options of `kind` as the API takes them. */
function optionsInput(kind: AdapterKind, o: VendorOptionValues) {
  const seconds = numberField(o.timeoutSeconds);
  const minutes = numberField(o.timeoutMinutes);
  return kind === 'adapter-one'
    ? { ...(o.region ? { region: o.region } : {}), stealth: o.stealth, ...(seconds !== undefined ? { timeoutSeconds: seconds } : {}) }
    : { ...(minutes !== undefined ? { timeoutMinutes: minutes } : {}), ...(o.proxyCountryCode.trim() ? { proxyCountryCode: o.proxyCountryCode.trim() } : {}) };
}

export function useKeyForm(routerId: string, onAdded: (provider: Provider) => void) {
  const form = useAddProviderForm(routerId, onAdded);
  const { slug, name, routing, errors, setErrors } = form;
  const verify = useVerifyKey(routerId);
  const [adapterKind, setAdapterKind] = useState<AdapterKind>('adapter-one');
  const [apiKey, setApiKey] = useState('');
  const [options, setOptions] = useState(defaultOptions);

  const runVerify = () => {
    const parsed = validate(verifyKeySchema, { adapterKind, credentials: { apiKey } });
    if (!parsed.ok) return setErrors(parsed.errors);
    setErrors({});
    verify.mutate(parsed.data);
  };

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

  const changeKey = (apply: () => void) => {
    apply();
    if (verify.data || verify.error) verify.reset();
  };

  const content = (
    <>
      <Segmented<AdapterKind>
        label="Vendor"
        value={adapterKind}
        onChange={(kind) => changeKey(() => setAdapterKind(kind))}
        options={(Object.keys(adapters) as AdapterKind[]).map((kind) => ({
          value: kind,
          label: adapters[kind].label,
          description: adapters[kind].description,
        }))}
      />
      {form.nameFields({ slugPlaceholder: adapterKind === 'adapter-one' ? 'kernel-us' : 'browser-use', namePlaceholder: adapters[adapterKind].label })}
      <KeyField
        apiKey={apiKey}
        error={errors['credentials.apiKey']}
        verify={verify}
        onVerify={runVerify}
        onChange={(value) =>
          changeKey(() => {
            setApiKey(value);
            setErrors(without('credentials.apiKey'));
          })
        }
      />
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

interface VendorOptionsProps {
  kind: AdapterKind;
  values: VendorOptionValues;
  errors: FieldErrors;
  onChange: (change: Partial<VendorOptionValues>) => void;
}

/** The chosen vendor's options. */
function VendorOptions({ kind, values, errors, onChange }: VendorOptionsProps) {
  return (
    <fieldset className="space-y-3">
      <legend className="mb-2 text-[13px] font-medium text-zinc-900">Vendor options</legend>
      {kind === 'adapter-one' ? (
        <div className="grid grid-cols-2 gap-3">
          <Field label="Region" htmlFor="adapter-region" error={errors['options.region']}>
            <Select id="adapter-region" value={values.region} onChange={(e) => onChange({ region: e.target.value })}>
              <option value="">Vendor default</option>
              {ADAPTER_ONE_REGIONS.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </Select>
          </Field>
          <TextField
            label="Inactivity timeout (s)"
            type="number"
            min={10}
            max={259_200}
            value={values.timeoutSeconds}
            onChange={(e) => onChange({ timeoutSeconds: e.target.value })}
            error={errors['options.timeoutSeconds']}
            hint="10–259,200 seconds"
          />
          <div className="col-span-2 flex items-center justify-between gap-4 rounded-lg border border-zinc-200 px-3 py-2.5">
            <label htmlFor="adapter-stealth" className="text-sm">
              <span className="block font-medium text-zinc-800">Stealth mode</span>
              <span className="block text-[12px] text-zinc-500">Ask the vendor for its anti-detection browser.</span>
            </label>
            <Switch id="adapter-stealth" checked={values.stealth} onChange={(stealth) => onChange({ stealth })} />
          </div>
        </div>
      ) : (
        <div className="grid grid-cols-2 gap-3">
          <TextField
            label="Session timeout (min)"
            type="number"
            min={1}
            max={240}
            value={values.timeoutMinutes}
            onChange={(e) => onChange({ timeoutMinutes: e.target.value })}
            error={errors['options.timeoutMinutes']}
            hint="1–240 minutes"
          />
          <TextField
            label={
              <>
                Proxy country <span className="font-normal text-zinc-400">(optional)</span>
              </>
            }
            value={values.proxyCountryCode}
            onChange={(e) => onChange({ proxyCountryCode: e.target.value })}
            error={errors['options.proxyCountryCode']}
            placeholder="Off"
            hint="Two lowercase letters, e.g. de"
            maxLength={2}
            spellCheck={false}
            autoComplete="off"
          />
        </div>
      )}
    </fieldset>
  );
}
