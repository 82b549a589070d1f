'use client';
// The address form of "Add provider": a ws(s):// CDP address (or the http(s) base of a browser),
// optional headers, routing fields, and a live Test before saving. The server tests and probes
// the address again when it saves; a failure there lands on the URL field.
import { useState, type Dispatch, type SetStateAction } from 'react';
import { isApiError } from '@/lib/client/api-fetch';
import { fieldErrorsFromApi, validate, type FieldErrors } from '@/lib/client/forms';
import { useTestUrl, type Provider } from '@/lib/client/providers';
import { addressCheckSchema, createProviderSchema, PROVIDER_HEADERS_MAX } from '@/lib/providers/schemas';
import { Button } from '../../ui/button';
import { Input } from '../../ui/input';
import { PlusIcon, XIcon, ZapIcon } from '../../ui/icons';
import { CheckedField, CheckResult, routingInput, useAddProviderForm } from './form-fields';

interface HeaderRow {
  id: number;
  name: string;
  value: string;
}

let nextRowId = 1;

/** Header rows as the API takes them, or the errors that keep them from being sent. */
function headerObject(headers: HeaderRow[]): { headers?: Record<string, string>; errors: FieldErrors } {
  const rows = headers.filter((h) => h.name.trim() || h.value);
  if (rows.length === 0) return { errors: {} };
  const out: Record<string, string> = {};
  const rowErrors: FieldErrors = {};
  for (const row of rows) {
    const headerName = row.name.trim();
    if (!headerName) rowErrors[`row.${row.id}`] = 'Name this header';
    else if (Object.keys(out).some((n) => n.toLowerCase() === headerName.toLowerCase())) rowErrors[`row.${row.id}`] = 'This header appears twice';
    else out[headerName] = row.value;
  }
  return { headers: out, errors: rowErrors };
}

/** The browser's address and its headers, with the live Test that runs on both. */
function useAddressTest(routerId: string, errors: FieldErrors, setErrors: Dispatch<SetStateAction<FieldErrors>>) {
  const test = useTestUrl(routerId);
  const [url, setUrl] = useState('');
  const [headers, setHeaders] = useState<HeaderRow[]>([]);

  const runTest = () => {
    const built = headerObject(headers);
    const parsed = validate(addressCheckSchema, { url: url.trim(), ...(built.headers ? { headers: built.headers } : {}) });
    const found = { ...built.errors, ...(parsed.ok ? {} : parsed.errors) };
    setErrors(found);
    if (Object.keys(found).length > 0 || !parsed.ok) return;
    test.mutate(parsed.data);
  };

  // A changed address makes the last test result (and the server's verdict on the old one) stale.
  const changeAddress = (apply: () => void) => {
    apply();
    if (test.data || test.error) test.reset();
    if (errors.url || errors.headers) setErrors((e) => ({ ...e, url: undefined, headers: undefined }));
  };

  const reset = () => {
    setUrl('');
    setHeaders([]);
    test.reset();
  };
  return { test, url, headers, runTest, changeAddress, setUrl, setHeaders, reset };
}

export function useAddressForm(routerId: string, onAdded: (provider: Provider) => void) {
  const form = useAddProviderForm(routerId, onAdded);
  const { slug, name, routing, errors, setErrors } = form;
  const { test, url, headers, runTest, changeAddress, setUrl, setHeaders, reset: resetAddress } = useAddressTest(routerId, errors, setErrors);

  const submit = () => {
    const built = headerObject(headers);
    const input = {
      slug: slug.trim(),
      ...(name.trim() ? { name: name.trim() } : {}),
      url: url.trim(),
      ...(built.headers ? { headers: built.headers } : {}),
      ...routingInput(routing),
    };
    const parsed = validate(createProviderSchema, input);
    const found = { ...built.errors, ...(parsed.ok ? {} : parsed.errors) };
    if (Object.keys(found).length > 0 || !parsed.ok) return setErrors(found);
    setErrors({});
    form.send(parsed.data, ['slug', 'name', 'url', 'headers', 'priority', 'weight', 'maxConcurrent', 'profile'], 'url');
  };

  const content = (
    <>
      {form.nameFields({ slugPlaceholder: 'chrome-eu-1', namePlaceholder: 'Chrome in Frankfurt', autoFocus: true })}
      <AddressField url={url} error={errors.url} test={test} onChange={(value) => changeAddress(() => setUrl(value))} onTest={runTest} />

      <HeaderRows
        headers={headers}
        errors={errors}
        onEdit={(edit) => changeAddress(() => setHeaders(edit))}
        onRowChanged={(id) => setErrors((e) => ({ ...e, [`row.${id}`]: undefined }))}
      />

      {form.routingFields}
    </>
  );

  const reset = () => {
    form.reset();
    resetAddress();
  };
  return { content, submit, reset, pending: form.pending, error: form.error };
}

interface AddressFieldProps {
  url: string;
  error: string | undefined;
  test: ReturnType<typeof useTestUrl>;
  onChange: (url: string) => void;
  onTest: () => void;
}

/** The browser's address with its Test button and the last test's result. */
function AddressField({ url, error, test, onChange, onTest }: AddressFieldProps) {
  return (
    <CheckedField
      label="Browser address"
      htmlFor="provider-url"
      error={error}
      hint={
        <>
          A <code className="font-mono text-[12px]">ws://</code> or <code className="font-mono text-[12px]">wss://</code> CDP address, or the{' '}
          <code className="font-mono text-[12px]">http(s)://</code> base of a browser that serves <code className="font-mono text-[12px]">/json/version</code>.
        </>
      }
      result={test.isPending || test.data || test.error ? <AddressTestResult test={test} /> : null}
      input={
        <Input
          id="provider-url"
          value={url}
          onChange={(e) => onChange(e.target.value)}
          invalid={Boolean(error)}
          placeholder="wss://browser.example.com/devtools/browser/…"
          spellCheck={false}
          autoComplete="off"
          className="font-mono text-[13px]"
        />
      }
      check={
        <Button onClick={onTest} loading={test.isPending} disabled={!url.trim()}>
          {!test.isPending && <ZapIcon />}
          Test
        </Button>
      }
    />
  );
}

/** What the last Test said (nothing before the first). */
function AddressTestResult({ test }: { test: ReturnType<typeof useTestUrl> }) {
  return test.isPending ? (
    <CheckResult state="pending">Connecting and asking the browser for its version…</CheckResult>
  ) : test.data?.ok ? (
    <CheckResult state="ok" testId="test-result">
      Reachable: the browser answered in {test.data.latencyMs} ms.
    </CheckResult>
  ) : test.data && !test.data.ok ? (
    <CheckResult state="failed" testId="test-result">
      Test failed: {test.data.reason}
    </CheckResult>
  ) : isApiError(test.error, 'provider_calibrating') ? (
    <CheckResult state="warning" testId="test-result">
      The managed provider is still starting (calibrating). Try again in a few seconds.
    </CheckResult>
  ) : test.error ? (
    // A refused address (the egress policy) is a validation error on `url`: shown without the field name.
    <CheckResult state="failed" testId="test-result">
      {fieldErrorsFromApi(test.error, ['url'])?.url ?? (test.error as Error).message}
    </CheckResult>
  ) : null;
}

interface HeaderRowsProps {
  headers: HeaderRow[];
  errors: FieldErrors;
  /** Every change of the rows: added, edited, removed. */
  onEdit: (edit: (rows: HeaderRow[]) => HeaderRow[]) => void;
  /** A row's text changed (its error is stale). */
  onRowChanged: (id: number) => void;
}

/** The optional headers sent on every connection to the provider, a row each. */
function HeaderRows({ headers, errors, onEdit, onRowChanged }: HeaderRowsProps) {
  const rowError = (row: HeaderRow) => errors[`row.${row.id}`] ?? (row.name.trim() ? errors[`headers.${row.name.trim()}`] : undefined);
  const change = (id: number, edit: Partial<HeaderRow>) => {
    onEdit((rows) => rows.map((r) => (r.id === id ? { ...r, ...edit } : r)));
    onRowChanged(id);
  };
  return (
    <fieldset className="space-y-2">
      <div className="flex items-center justify-between">
        <legend className="text-[13px] font-medium text-zinc-900">
          Headers <span className="font-normal text-zinc-400">(optional, up to {PROVIDER_HEADERS_MAX})</span>
        </legend>
        <Button
          size="sm"
          variant="ghost"
          disabled={headers.length >= PROVIDER_HEADERS_MAX}
          onClick={() => onEdit((rows) => [...rows, { id: nextRowId++, name: '', value: '' }])}
        >
          <PlusIcon />
          Add header
        </Button>
      </div>
      {headers.length === 0 ? (
        <p className="text-[13px] text-zinc-500">
          Sent on every connection to the provider, e.g. an Authorization header. Stored encrypted and never shown again.
        </p>
      ) : (
        <ul className="space-y-2">
          {headers.map((row, index) => (
            <HeaderRowInputs
              key={row.id}
              row={row}
              index={index}
              error={rowError(row)}
              onChange={(edit) => change(row.id, edit)}
              onRemove={() => onEdit((rows) => rows.filter((r) => r.id !== row.id))}
            />
          ))}
        </ul>
      )}
      {errors.headers && (
        <p className="text-[13px] text-red-600" role="alert">
          {errors.headers}
        </p>
      )}
    </fieldset>
  );
}

interface HeaderRowInputsProps {
  row: HeaderRow;
  index: number;
  error: string | undefined;
  onChange: (edit: Partial<HeaderRow>) => void;
  onRemove: () => void;
}

/** One header: its name, its value, and a button that removes it. */
function HeaderRowInputs({ row, index, error, onChange, onRemove }: HeaderRowInputsProps) {
  return (
    <li>
      <div className="flex gap-2">
        <div className="w-2/5 shrink-0">
          <Input
            aria-label={`Header ${index + 1} name`}
            value={row.name}
            onChange={(e) => onChange({ name: e.target.value })}
            invalid={Boolean(error)}
            placeholder="Authorization"
            className="font-mono text-[13px]"
            spellCheck={false}
            autoComplete="off"
          />
        </div>
        <div className="min-w-0 flex-1">
          <Input
            aria-label={`Header ${index + 1} value`}
            value={row.value}
            onChange={(e) => onChange({ value: e.target.value })}
            placeholder="Bearer …"
            className="font-mono text-[13px]"
            spellCheck={false}
            autoComplete="off"
          />
        </div>
        <Button variant="ghost" aria-label={`Remove header ${index + 1}`} onClick={onRemove}>
          <XIcon />
        </Button>
      </div>
      {error && (
        <p className="mt-1 text-[13px] text-red-600" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}
