// Helpers for the gateway.yml tests.
import assert from 'node:assert/strict';
import { ConfigError, parseConfig } from './config';

/** The formatted problems of a file that must not load, one per line as the operator reads them. */
export function problems(text: string, env: Record<string, string> = {}): string[] {
  try {
    parseConfig(text, { env });
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error.message.split('\n');
  }
  assert.fail('expected a ConfigError');
}
