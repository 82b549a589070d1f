// A JSON Schema of the document as a reader wants it: each field with its type, whether it is
// required, its limits and its description; objects inside objects indented; named schemas as
// links to their own section at the end of the page.
import type { ReactNode } from 'react';
import type { JsonSchema } from '@/lib/openapi/schema';
import { InlineText } from './text';

const MAX_DEPTH = 4;

export const schemaAnchor = (name: string) => `schema-${name}`;

const refName = (schema: JsonSchema) => (typeof schema.$ref === 'string' ? schema.$ref.split('/').pop()! : null);
const branches = (schema: JsonSchema) => (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
const isObject = (schema: JsonSchema) => schema.type === 'object' && Boolean(schema.properties);

/** The type in a few words: `string (date-time)`, `Router[]`, `integer | null`, `map of string`. */
export function TypeLabel({ schema }: { schema: JsonSchema }): ReactNode {
  const name = refName(schema);
  if (name)
    return (
      <a href={`#${schemaAnchor(name)}`} className="ref-link">
        {name}
      </a>
    );
  const options = branches(schema);
  if (options)
    return options.map((branch, i) => (
      <span key={i}>
        {i > 0 && ' | '}
        <TypeLabel schema={branch} />
      </span>
    ));
  if ('const' in schema) return <code>{JSON.stringify(schema.const)}</code>;
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  if (schema.type === 'array') return <>{schema.items ? <TypeLabel schema={schema.items as JsonSchema} /> : 'any'}[]</>;
  if (schema.type === 'object' && !schema.properties && schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    return (
      <>
        map of <TypeLabel schema={schema.additionalProperties as JsonSchema} />
      </>
    );
  }
  if (typeof schema.type === 'string') return schema.format ? `${schema.type} (${String(schema.format)})` : schema.type;
  return 'any';
}

/** Limits, allowed values and the default, as short phrases. */
export function constraints(schema: JsonSchema): string[] {
  const out: string[] = [];
  const target = branches(schema)?.find((b) => b.type !== 'null') ?? schema;
  if (Array.isArray(target.enum)) out.push(`one of ${target.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  const range = (min: unknown, max: unknown, unit = '') => {
    if (typeof min === 'number' && typeof max === 'number') out.push(`${min}–${max}${unit}`);
    else if (typeof min === 'number') out.push(`≥ ${min}${unit}`);
    else if (typeof max === 'number') out.push(`≤ ${max}${unit}`);
  };
  range(target.minimum, target.maximum);
  range(target.minLength, target.maxLength, ' characters');
  range(target.minItems, target.maxItems, ' items');
  if (typeof target.pattern === 'string' && target.pattern.length <= 60) out.push(`pattern ${target.pattern}`);
  if ('default' in schema) out.push(`default ${JSON.stringify(schema.default)}`);
  return out;
}

/** The schema an array or an optional field is about, when it is an object written inline. */
function inlineObject(schema: JsonSchema): JsonSchema | null {
  if (isObject(schema)) return schema;
  if (schema.type === 'array' && schema.items && isObject(schema.items as JsonSchema)) return schema.items as JsonSchema;
  const nonNull = branches(schema)?.filter((b) => b.type !== 'null');
  if (nonNull?.length === 1) return inlineObject(nonNull[0]!);
  return null;
}

function Fields({ schema, depth }: { schema: JsonSchema; depth: number }) {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>);
  const required = new Set((schema.required ?? []) as string[]);
  if (properties.length === 0) return <p className="text-[13px] text-zinc-500">An object{schema.additionalProperties === false ? ' with no fields' : ''}.</p>;
  return (
    <ul className="ref-list">
      {properties.map(([name, field]) => {
        const nested = depth < MAX_DEPTH ? inlineObject(field) : null;
        const limits = constraints(field);
        return (
          <li key={name} className="ref-row">
            <div className="ref-line">
              <code className="ref-name">{name}</code>
              <span className="ref-type">
                <TypeLabel schema={field} />
              </span>
              {required.has(name) && <span className="ref-req">required</span>}
              {limits.length > 0 && <span className="text-zinc-500">{limits.join(' · ')}</span>}
            </div>
            {typeof field.description === 'string' && (
              <p className="ref-desc">
                <InlineText text={field.description} />
              </p>
            )}
            {nested && (
              <div className="ref-nested">
                <Fields schema={nested} depth={depth + 1} />
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}

export function SchemaView({ schema, depth = 0 }: { schema: JsonSchema; depth?: number }): ReactNode {
  const description =
    typeof schema.description === 'string' && depth === 0 && !refName(schema) ? (
      <p className="mb-2 text-[13px] text-zinc-600">
        <InlineText text={schema.description} />
      </p>
    ) : null;
  if (isObject(schema))
    return (
      <>
        {description}
        <Fields schema={schema} depth={depth} />
      </>
    );
  const options = branches(schema);
  if (options && options.some((b) => isObject(b))) {
    return (
      <div className="space-y-2">
        {description}
        <p className="text-[13px] text-zinc-600">One of:</p>
        {options.map((branch, i) => (
          <div key={i} className="border-l-2 border-zinc-200 pl-3">
            {isObject(branch) ? (
              <Fields schema={branch} depth={depth + 1} />
            ) : (
              <span className="font-mono text-[13px] text-zinc-600">
                <TypeLabel schema={branch} />
              </span>
            )}
          </div>
        ))}
      </div>
    );
  }
  const inner = inlineObject(schema);
  return (
    <div className="space-y-2">
      {description}
      <p className="font-mono text-[13px] text-zinc-600">
        <TypeLabel schema={schema} />
      </p>
      {inner && <Fields schema={inner} depth={depth + 1} />}
    </div>
  );
}

export function JsonExample({ value, label = 'Example' }: { value: unknown; label?: string }) {
  if (value === undefined) return null;
  return (
    <details className="group mt-2">
      <summary className="ref-toggle">{label}</summary>
      <pre className="mt-2 max-h-96 overflow-auto rounded-lg bg-zinc-950 px-4 py-3 font-mono text-[12px] leading-relaxed text-zinc-100">
        {JSON.stringify(value, null, 2)}
      </pre>
    </details>
  );
}
