// An example value for any schema of the document, for the answers and bodies that have none of
// their own: a component's own example where the schema names one, else defaults, enums and
// placeholders by type. The document's validity test checks every example against its schema.
import { COMPONENT_REF, type JsonSchema } from './schema';

const PLACEHOLDERS: Record<string, unknown> = { 'date-time': '2026-11-24T10:15:00.000Z', binary: '<bytes>', uri: 'https://example.com' };

export function exampleOf(schema: JsonSchema, components: Record<string, JsonSchema>, depth = 0): unknown {
  if (depth > 12) return null;
  const next = (inner: unknown) => exampleOf(inner as JsonSchema, components, depth + 1);
  if (typeof schema.$ref === 'string') return next(components[schema.$ref.slice(COMPONENT_REF.length)] ?? {});
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key] as JsonSchema[] | undefined;
    if (branches) return next(branches.find((b) => b.type !== 'null') ?? branches[0]);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(Object.entries(properties).map(([name, inner]) => [name, next(inner)]));
    }
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      return schema.items ? Array.from({ length: Math.max(min, 1) }, () => next(schema.items)) : [];
    }
    case 'string':
      return PLACEHOLDERS[schema.format as string] ?? 'string';
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 0;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return {};
  }
}
