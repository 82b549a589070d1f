// zod → JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) for the API's document. A schema
// named with `.meta({ id })` becomes a component and is referenced wherever it appears; the rest is
// written inline. Request schemas are the handlers' own (their input side: defaults make a field
// optional, a strict object refuses other fields), unwrapped from withFieldErrors.
import { z } from 'zod';
import { describedSchema } from '../api/validation';

export type JsonSchema = { [key: string]: unknown };

export const COMPONENT_REF = '#/components/schemas/';

export class SchemaSet {
  /** The named schemas met so far, by id. */
  readonly components: Record<string, JsonSchema> = {};

  convert(schema: z.ZodType): JsonSchema {
    const json = z.toJSONSchema(describedSchema(schema), {
      target: 'draft-2020-12',
      io: 'input',
      unrepresentable: 'any',
      reused: 'inline',
      cycles: 'ref',
    }) as JsonSchema;
    const { $schema: _dialect, $defs, ...body } = json;
    for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) this.name(id, tidy(def) as JsonSchema);
    return tidy(body) as JsonSchema;
  }

  private name(id: string, schema: JsonSchema): void {
    const existing = this.components[id];
    if (existing && JSON.stringify(existing) !== JSON.stringify(schema)) throw new Error(`two different schemas are named "${id}"`);
    this.components[id] = schema;
  }
}

/**
 * Refs into the components, and without the bounds zod gives every integer (the safe-integer
 * range), which say nothing a reader needs.
 */
function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy);
  if (value === null || typeof value !== 'object') return value;
  const out: JsonSchema = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === '$ref' && typeof inner === 'string' && inner.startsWith('#/$defs/')) out.$ref = COMPONENT_REF + inner.slice('#/$defs/'.length);
    else if ((key === 'minimum' && inner === Number.MIN_SAFE_INTEGER) || (key === 'maximum' && inner === Number.MAX_SAFE_INTEGER)) continue;
    else out[key] = tidy(inner);
  }
  return out;
}
