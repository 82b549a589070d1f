// `${NAME}` in gateway.yml (docs/gateway.md, "Environment variables in values"). A reference is
// replaced inside the one scalar that holds it, never in the file's text, so a value holding a line
// break, ": ", "#", quotes or brackets is only ever that scalar's text: it cannot add a key, end a
// string or close a mapping. An unquoted scalar is then typed as YAML would have typed the result,
// which is how `maxConcurrent: ${MAX}` becomes a number.
//
// YAML cannot parse `{ limits: { maxConcurrent: ${MAX} } }` as written ("{" and "}" are flow
// indicators), so before parsing each reference is swapped for a placeholder of letters, digits and
// "_" (inert in every YAML context and on the same line), and the reader swaps it back.
import { isScalar, type Schema, type ScalarTag } from 'yaml';

/** `${NAME}`, and `$${NAME}` (the escape: a literal `${NAME}`), masked alike and put back as written. */
const REFERENCE = /\$?\$\{[A-Za-z_][A-Za-z0-9_]*\}/g;

export class EnvReferences {
  /** The text for the YAML parser. */
  readonly masked: string;
  private readonly written: string[] = [];
  private readonly placeholder: RegExp;

  constructor(text: string) {
    // A prefix that occurs nowhere in the file, so every match below is one of ours.
    let tag = 'gwenv';
    while (text.includes(tag)) tag += 'x';
    const index = new Map<string, number>();
    this.masked = text.replace(REFERENCE, (reference) => {
      // The same reference twice is the same placeholder, so duplicate keys stay duplicates.
      if (!index.has(reference)) index.set(reference, this.written.push(reference) - 1);
      return `${tag}${index.get(reference)}_`;
    });
    this.placeholder = new RegExp(`${tag}(\\d+)_`, 'g');
  }

  /** Text from the parsed document (a scalar, a key, a parser message) as the file has it. */
  unmask(text: string): string {
    return this.written.length === 0 ? text : text.replace(this.placeholder, (_, i: string) => this.written[Number(i)]!);
  }
}

export type Substitution = { ok: true; value: string } | { ok: false; problems: string[] };

/**
 * Replaces `${NAME}` from the environment and `$${` by a literal `${`. An unset variable, or a
 * `${` that is not a `${NAME}` reference, is a problem (phrased to follow the key path).
 */
export function substitute(written: string, env: Readonly<Record<string, string | undefined>>): Substitution {
  const problems: string[] = [];
  const value = written.replace(/\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$\{[^}]*\}?/g, (match, name: string | undefined) => {
    if (match === '$${') return '${';
    if (name === undefined) {
      problems.push(`has "${match}", which is not a \${NAME} reference (write $\${ for a literal \${)`);
      return match;
    }
    const replacement = env[name];
    if (replacement === undefined) problems.push(`uses \${${name}}, but the environment variable ${name} is not set`);
    return replacement ?? match;
  });
  return problems.length === 0 ? { ok: true, value } : { ok: false, problems };
}

/**
 * What YAML makes of `text` written unquoted, by the document's own schema, kept when it is a
 * number or a boolean: `3`, `0.5`, `false`, `TRUE`. Anything else (`yes`, ` 3`, `null`, ``, `a: b`)
 * stays the text.
 */
export function typeUnquoted(text: string, schema: Schema): string | number | boolean {
  const tag = schema.tags.find((t): t is ScalarTag => t.default === true && t.test !== undefined && t.test.test(text));
  const resolved: unknown = tag?.resolve(text, () => {}, {});
  const value = isScalar(resolved) ? resolved.value : resolved;
  return typeof value === 'number' || typeof value === 'boolean' ? value : text;
}
