// Checks values against the document's schemas, for tests: a body against a response of an
// operation (`strict`: no field the document does not name), an example against its schema.
// JSON Schema 2020-12 through Ajv, with the document's components resolvable by reference.
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { OpenApiDocument } from './document';
import { COMPONENT_REF, type JsonSchema } from './schema';

const BASE = 'https://openapi.invalid/document.json';

/** Every reference made absolute; with `strict`, every object that names its fields refuses others. */
function prepare(value: unknown, strict: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => prepare(v, strict));
  if (value === null || typeof value !== 'object') return value;
  const out: JsonSchema = {};
  for (const [key, inner] of Object.entries(value)) {
    // `properties` and `examples` hold names and values, not schemas: only their members are schemas.
    if (key === 'properties' && inner && typeof inner === 'object')
      out[key] = Object.fromEntries(Object.entries(inner).map(([name, s]) => [name, prepare(s, strict)]));
    else if (key === 'examples' || key === 'default' || key === 'const' || key === 'enum') out[key] = inner;
    else
      out[key] =
        key === '$ref' && typeof inner === 'string' && inner.startsWith(COMPONENT_REF)
          ? `${BASE}#/components/schemas/${inner.slice(COMPONENT_REF.length)}`
          : prepare(inner, strict);
  }
  if (strict && out.properties && out.additionalProperties === undefined && out.type === 'object') out.additionalProperties = false;
  return out;
}

export interface DocumentValidator {
  /** Why `value` does not match `schema` (a schema of the document), or null when it does. */
  check(schema: JsonSchema, value: unknown, options?: { strict?: boolean }): string | null;
  /** Why `body` is not what the document says `method path` answers with `status` (strictly), or null. */
  response(method: string, path: string, status: number, body: unknown): string | null;
}

export function documentValidator(doc: OpenApiDocument): DocumentValidator {
  const make = (strict: boolean) => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: BASE, components: { schemas: prepare(doc.components.schemas, strict) } });
    return ajv;
  };
  const validators = {
    strict: { ajv: make(true), compiled: new WeakMap<JsonSchema, ValidateFunction>() },
    loose: { ajv: make(false), compiled: new WeakMap<JsonSchema, ValidateFunction>() },
  };
  const check = (schema: JsonSchema, value: unknown, { strict = false } = {}) => {
    const { ajv, compiled } = strict ? validators.strict : validators.loose;
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile(prepare(schema, strict) as JsonSchema);
      compiled.set(schema, validate);
    }
    return validate(value) ? null : ajv.errorsText(validate.errors, { separator: '; ' });
  };
  return {
    check,
    response(method, path, status, body) {
      const operation = doc.paths[path]?.[method.toLowerCase()];
      if (!operation) return `the document has no ${method.toUpperCase()} ${path}`;
      const answer = (operation.responses as Record<string, JsonSchema>)[String(status)];
      if (!answer) return `the document lists no ${status} for ${method.toUpperCase()} ${path}`;
      const schema = (answer.content as Record<string, { schema: JsonSchema }> | undefined)?.['application/json']?.schema;
      if (!schema) return `the document gives no JSON body for ${status} of ${method.toUpperCase()} ${path}`;
      return check(schema, body, { strict: true });
    },
  };
}
