'use client';
// The router's own names a trace redacts besides the defaults (`traceRedactNames`, docs/traces.md,
// "Secrets"): one name per line or separated by commas, checked with the server's own schema and
// saved through PATCH /v1/routers/:id like the other router settings.
import { useState } from 'react';
import { fieldErrorsFromApi, validate, type FieldErrors } from '@/lib/client/forms';
import { useActiveWorkspace } from '@/lib/client/me';
import { useUpdateRouter, type Router } from '@/lib/client/routers';
import { TRACE_REDACT_NAMES_MAX, updateRouterSchema } from '@/lib/routers/schemas';
import { REDACTED, REDACTED_HEADERS, REDACTED_QUERY_PARAMS } from '@/lib/traces/redact';
import { ErrorAlert } from '../../ui/alert';
import { Button } from '../../ui/button';
import { Card, CardFooter, CardHeader } from '../../ui/card';
import { Field, Textarea } from '../../ui/input';
import { useToast } from '../../ui/toast';

const FIELD = 'traceRedactNames';

/** The names typed: split on lines and commas, blanks dropped. */
export function parseNames(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((name) => name.trim())
    .filter(Boolean);
}

const textOf = (names: readonly string[]) => names.join('\n');

/** One message for the field: an issue about one name says which (`traceRedactNames.3`). */
function fieldError(errors: FieldErrors, names: readonly string[]): string | undefined {
  for (const [path, message] of Object.entries(errors)) {
    if (!message) continue;
    const index = path.startsWith(`${FIELD}.`) ? Number(path.slice(FIELD.length + 1)) : NaN;
    return Number.isInteger(index) && names[index] !== undefined ? `${JSON.stringify(names[index])}: ${message}` : message;
  }
  return undefined;
}

function Defaults() {
  return (
    <details className="text-[13px] text-zinc-500">
      <summary className="cursor-pointer select-none">Names redacted without being listed</summary>
      <p className="mt-1.5">Headers: {[...REDACTED_HEADERS].join(', ')}, and any name ending in -token, -secret, -password, -signature or -api-key.</p>
      <p className="mt-1">URL parameters: {[...REDACTED_QUERY_PARAMS].join(', ')}.</p>
    </details>
  );
}

/** The form's state: the names as typed, whether they changed, the field's error, change and save. */
function useTraceRedactionForm(router: Router) {
  const update = useUpdateRouter(router.id);
  const toast = useToast();
  const [text, setText] = useState(() => textOf(router.traceRedactNames));
  const [errors, setErrors] = useState<FieldErrors>({});
  const names = parseNames(text);
  const dirty = textOf(names) !== textOf(router.traceRedactNames);

  const submit = () => {
    const parsed = validate(updateRouterSchema, { [FIELD]: names });
    if (!parsed.ok) return setErrors(parsed.errors);
    setErrors({});
    update.mutate(parsed.data, {
      onSuccess: (saved) => {
        setText(textOf(saved.traceRedactNames));
        toast('Trace redaction saved');
      },
      onError: (error) => setErrors(fieldErrorsFromApi(error, [FIELD]) ?? {}),
    });
  };
  const change = (value: string) => {
    setText(value);
    setErrors({});
  };
  return { update, text, change, error: fieldError(errors, names), dirty, submit };
}

export function TraceRedactionCard({ router }: { router: Router }) {
  const { canManage } = useActiveWorkspace();
  const { update, text, change, error, dirty, submit } = useTraceRedactionForm(router);

  return (
    <Card aria-label="Trace redaction">
      <CardHeader
        title="Trace redaction"
        description={
          <>
            Headers and URL parameters whose values this router&apos;s traces store as <code className="font-mono text-[12px] text-zinc-700">{REDACTED}</code>,
            besides the usual credentials (Authorization, Cookie, token, key, …). Applies to sessions started after saving.
          </>
        }
      />
      <form
        noValidate
        aria-label="Trace redaction settings"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <div className="space-y-3 px-5 py-5">
          <NamesField text={text} error={error} disabled={!canManage} onChange={change} />
          <Defaults />
          {!error && <ErrorAlert error={update.error} />}
        </div>
        {canManage && (
          <CardFooter>
            <span className="text-[13px] text-zinc-500">{dirty ? 'You have unsaved changes.' : ''}</span>
            <Button type="submit" size="sm" variant="primary" loading={update.isPending} disabled={!dirty}>
              Save trace redaction
            </Button>
          </CardFooter>
        )}
      </form>
    </Card>
  );
}

/** The router's own names, one per line or comma-separated. */
function NamesField({ text, error, disabled, onChange }: { text: string; error: string | undefined; disabled: boolean; onChange: (text: string) => void }) {
  return (
    <Field
      label="Extra names to redact"
      htmlFor="router-trace-redact-names"
      error={error}
      hint={`One per line or separated by commas; each a header or parameter name (letters, digits, - _ . and the like), compared without case. Up to ${TRACE_REDACT_NAMES_MAX}.`}
    >
      <Textarea
        id="router-trace-redact-names"
        rows={4}
        value={text}
        placeholder={'X-Site-Session-Id\nacct'}
        onChange={(e) => onChange(e.target.value)}
        disabled={disabled}
        invalid={Boolean(error)}
        spellCheck={false}
        className="font-mono text-[13px]"
      />
    </Field>
  );
}
