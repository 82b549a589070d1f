// The document against the OpenAPI 3.1 schema itself (the OpenAPI Initiative's JSON Schema of the
// specification, Schema Objects checked by its dialect), through @seriousme/openapi-schema-validator:
// Ajv alone resolves that schema's $dynamicRef wrongly and refuses every Schema Object.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildOpenApiDocument } from './document';

interface Validator {
  validate(specification: object): Promise<{ valid: boolean; errors?: unknown }>;
  version: string;
}

const PACKAGE = '@seriousme/openapi-schema-validator';

test('the document is valid against the OpenAPI 3.1 schema', async () => {
  // A specifier in a variable: the type check does not need the package, the test does.
  const imported = (await import(PACKAGE).catch(() => null)) as { Validator: new () => Validator } | null;
  assert.ok(imported, `${PACKAGE} is not installed: npm install --save-dev ${PACKAGE}@2.11.0`);
  const validator = new imported.Validator();
  const result = await validator.validate(buildOpenApiDocument({ web: 'http://web.test', proxy: 'http://proxy.test' }));
  assert.equal(validator.version, '3.1');
  assert.ok(result.valid, JSON.stringify(result.errors, null, 2)?.slice(0, 4000));
});
