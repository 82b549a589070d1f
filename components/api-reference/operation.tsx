// One operation of the reference: method and path with an anchor, what it does, who may call it,
// its parameters, body and answers, and a curl command to copy.
import type { ReferenceOperation, ReferenceResponse } from '@/lib/openapi/reference';
import { CodeBlock } from '../ui/code-block';
import { cn } from '../ui/cn';
import { constraints, JsonExample, SchemaView, TypeLabel } from './schema-view';
import { InlineText, Prose } from './text';

const METHOD_TONES: Record<string, string> = {
  get: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  post: 'bg-accent-50 text-accent-700 ring-accent-200',
  patch: 'bg-amber-50 text-amber-800 ring-amber-200',
  put: 'bg-violet-50 text-violet-700 ring-violet-200',
  delete: 'bg-red-50 text-red-700 ring-red-200',
};

export function MethodBadge({ method, className }: { method: string; className?: string }) {
  return <span className={cn('ref-method', METHOD_TONES[method], className)}>{method}</span>;
}

function Heading({ children }: { children: React.ReactNode }) {
  return <h4 className="mb-2 text-[13px] font-semibold tracking-wide text-zinc-500 uppercase">{children}</h4>;
}

export const errorAnchor = (code: string) => `error-${code}`;

function Answer({ response }: { response: ReferenceResponse }) {
  const status = Number(response.status);
  const tone = status < 300 ? 'text-emerald-700' : status < 500 ? 'text-amber-700' : 'text-red-700';
  // An error of the envelope: its codes, linked to their meanings in the Errors list (said once).
  if (response.codes.length > 0) {
    return (
      <li className="ref-row ref-line">
        <span className={cn('font-mono font-semibold', tone)}>{response.status}</span>
        {response.codes.map((code) => (
          <a key={code} href={`#${errorAnchor(code)}`} className="ref-code hover:underline">
            {code}
          </a>
        ))}
      </li>
    );
  }
  return (
    <li className="ref-row">
      <div className="ref-line">
        <span className={cn('font-mono font-semibold', tone)}>{response.status}</span>
        {response.contentType && <span className="font-mono text-zinc-400">{response.contentType}</span>}
        {status >= 400 && response.schema && (
          <span className="ref-type">
            <TypeLabel schema={response.schema} />
          </span>
        )}
      </div>
      <p className="ref-desc">
        <InlineText text={response.description} />
      </p>
      {status < 400 && response.schema && (
        <details className="mt-2">
          <summary className="ref-toggle">Schema</summary>
          <div className="mt-2">
            <SchemaView schema={response.schema} />
          </div>
        </details>
      )}
      {status < 400 && <JsonExample value={response.example} />}
    </li>
  );
}

export function OperationCard({ op }: { op: ReferenceOperation }) {
  const titleId = `${op.id}-title`;
  return (
    <article id={op.id} aria-labelledby={titleId} className="scroll-mt-32 rounded-xl border border-zinc-200 bg-white p-5 shadow-xs">
      <div className="flex flex-wrap items-center gap-2.5">
        <MethodBadge method={op.method} />
        <code className="font-mono text-sm font-medium break-all text-zinc-900">{op.path}</code>
        {op.onProxy && (
          <span className="rounded-full bg-zinc-100 px-2 py-0.5 text-[11px] font-medium text-zinc-600 ring-1 ring-zinc-200 ring-inset">proxy</span>
        )}
        <a href={`#${op.id}`} className="ml-auto text-[13px] text-zinc-400 hover:text-accent-700" aria-label={`Link to ${op.method.toUpperCase()} ${op.path}`}>
          #
        </a>
      </div>
      <h3 id={titleId} className="mt-2 text-base font-semibold text-zinc-900">
        <InlineText text={op.summary} />
      </h3>
      <Prose text={op.description} className="mt-1.5" />
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-[13px]">
        <dt className="text-zinc-500">Credential</dt>
        <dd className="text-zinc-800">{op.auth}</dd>
        <dt className="text-zinc-500">Server</dt>
        <dd className="font-mono text-zinc-800">{op.server}</dd>
      </dl>

      {op.parameters.length > 0 && <Parameters parameters={op.parameters} />}

      {op.body && (
        <section className="mt-5">
          <Heading>Request body{op.body.required ? '' : ' (optional)'}</Heading>
          <SchemaView schema={op.body.schema} />
          <JsonExample value={op.body.example} />
        </section>
      )}

      <section className="mt-5">
        <Heading>Responses</Heading>
        <ul className="ref-list">
          {op.responses.map((r) => (
            <Answer key={r.status} response={r} />
          ))}
        </ul>
      </section>

      <CodeBlock title="curl" code={op.curl} label={`curl example for ${op.method.toUpperCase()} ${op.path}`} className="mt-5" />
    </article>
  );
}

/** The path and query parameters, with their types, constraints and what they mean. */
function Parameters({ parameters }: { parameters: ReferenceOperation['parameters'] }) {
  return (
    <section className="mt-5">
      <Heading>Parameters</Heading>
      <ul className="ref-list">
        {parameters.map((p) => (
          <li key={`${p.in}-${p.name}`} className="ref-row">
            <div className="ref-line">
              <code className="ref-name">{p.name}</code>
              <span className="text-zinc-400">{p.in}</span>
              <span className="ref-type">
                <TypeLabel schema={p.schema} />
              </span>
              {p.required && <span className="ref-req">required</span>}
              {constraints(p.schema).length > 0 && <span className="text-zinc-500">{constraints(p.schema).join(' · ')}</span>}
            </div>
            {p.description && (
              <p className="ref-desc">
                <InlineText text={p.description} />
              </p>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
