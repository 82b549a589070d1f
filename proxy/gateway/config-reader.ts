// Reads values out of a parsed YAML document while remembering where each one came from, so that
// every complaint about gateway.yml can name the key path and the line. It collects problems
// instead of throwing at the first one: an operator fixing a file wants the whole list at once.
import { isAlias, isMap, isScalar, isSeq, Scalar, type Document, type LineCounter, type Node } from 'yaml';
import { substitute, typeUnquoted, type EnvReferences } from './config-env';

export interface ConfigIssue {
  /** The file name as the caller gave it. */
  file: string;
  /** 1-based; null for problems with the file as a whole (it cannot be read). */
  line: number | null;
  /** Dotted key path (`providers.local.limits.maxConcurrent`, `webhooks[0].url`); '' for the file. */
  path: string;
  /** The complaint, phrased to follow the path: "must be a positive integer (got "three")". */
  message: string;
}

export function formatIssue(issue: ConfigIssue): string {
  const where = issue.line === null ? issue.file : `${issue.file}:${issue.line}`;
  return issue.path ? `${where}: ${issue.path} ${issue.message}` : `${where}: ${issue.message}`;
}

/** A value in the document: its node (null when the key is absent) and the line to blame. */
export interface Located {
  node: Node | null;
  path: string;
  line: number;
}

export class Reader {
  readonly issues: ConfigIssue[] = [];

  constructor(
    private readonly doc: Document,
    private readonly lines: LineCounter,
    private readonly refs: EnvReferences,
    private readonly env: Readonly<Record<string, string | undefined>>,
    private readonly file: string,
  ) {}

  lineAt(offset: number): number {
    return this.lines.linePos(offset).line;
  }

  report(line: number | null, path: string, message: string): void {
    this.issues.push({ file: this.file, line, path, message });
  }

  root(): Located {
    return { node: this.resolve(this.doc.contents as Node | null), path: '', line: 1 };
  }

  /**
   * The entries of a mapping. With `known`, any other key is reported (typos must not be silently
   * ignored) with the closest known key as a suggestion. An absent or null value reads as empty.
   */
  entries(at: Located, known?: readonly string[]): { key: string; value: Located }[] {
    if (at.node === null) return [];
    if (!isMap(at.node)) {
      this.report(at.line, at.path || '(top level)', `must be a mapping of keys to values (got ${describe(at.node)})`);
      return [];
    }
    const out: { key: string; value: Located }[] = [];
    for (const pair of at.node.items) {
      const keyNode = pair.key as Node | null;
      // Keys are not substituted: a `${NAME}` in one is kept as written.
      const key = this.refs.unmask(isScalar(keyNode) ? String(keyNode.value) : String(keyNode));
      const keyLine = keyNode?.range ? this.lineAt(keyNode.range[0]) : at.line;
      const path = at.path ? `${at.path}.${key}` : key;
      if (known && !known.includes(key)) {
        const guess = closest(key, known);
        this.report(keyLine, path, `is not a known key (${guess ? `did you mean "${guess}"?` : `known keys here: ${known.join(', ')}`})`);
        continue;
      }
      const value = this.resolve(pair.value as Node | null);
      out.push({ key, value: { node: value, path, line: value?.range ? this.lineAt(value.range[0]) : keyLine } });
    }
    return out;
  }

  /** One key of a mapping whose keys were already checked; absent keys carry the map's line. */
  child(entries: { key: string; value: Located }[], parent: Located, key: string): Located {
    const found = entries.find((e) => e.key === key);
    return found?.value ?? { node: null, path: parent.path ? `${parent.path}.${key}` : key, line: parent.line };
  }

  items(at: Located): Located[] {
    if (at.node === null) return [];
    if (!isSeq(at.node)) {
      this.report(at.line, at.path, `must be a list (got ${describe(at.node)})`);
      return [];
    }
    return at.node.items.map((item, index) => {
      const node = this.resolve(item as Node | null);
      return { node, path: `${at.path}[${index}]`, line: node?.range ? this.lineAt(node.range[0]) : at.line };
    });
  }

  /**
   * A scalar's value, or undefined when the key is absent or null (then the default applies) or a
   * `${NAME}` in it could not be replaced (reported). After substitution an unquoted scalar is typed
   * as YAML types it, so `${MAX}` can be a number; a quoted one stays a string, as `"3"` does.
   */
  scalar(at: Located): unknown {
    if (at.node === null) return undefined;
    if (!isScalar(at.node)) return at.node; // reported by the caller's type check via shown()
    const { value, type } = at.node;
    if (typeof value !== 'string') return value ?? undefined;
    const text = this.substituted(at, value);
    if (text === undefined || text.value === text.raw || type !== Scalar.PLAIN) return text?.value;
    return typeUnquoted(text.value, this.doc.schema);
  }

  /**
   * A string with `${NAME}` replaced from the environment and `$${` kept as a literal `${`. An
   * unset variable is an error naming it. A substituted value is used as text even when it reads
   * as a number (a token of digits is still a token). Returns the raw text too: messages quote the
   * raw text, never the substituted one, which may hold a token.
   */
  string(at: Located): { value: string; raw: string } | undefined {
    if (at.node === null) return undefined;
    const value = isScalar(at.node) ? at.node.value : at.node;
    if (value === null || value === undefined) return undefined;
    if (typeof value !== 'string') {
      this.report(at.line, at.path, `must be a string (got ${describe(value)})`);
      return undefined;
    }
    return this.substituted(at, value);
  }

  /** How a message quotes the value: as written in the file, before any substitution. */
  shown(at: Located): string {
    if (isScalar(at.node) && typeof at.node.value === 'string') return describe(this.refs.unmask(at.node.value));
    return describe(at.node);
  }

  private substituted(at: Located, parsed: string): { value: string; raw: string } | undefined {
    const raw = this.refs.unmask(parsed);
    const result = substitute(raw, this.env);
    if (result.ok) return { value: result.value, raw };
    for (const problem of result.problems) this.report(at.line, at.path, problem);
    return undefined;
  }

  private resolve(node: Node | null | undefined): Node | null {
    const resolved = isAlias(node) ? (node.resolve(this.doc) as Node | undefined) : node;
    // `key:` with nothing after it, or `key: null`: the key is unset and its default applies.
    if (resolved === undefined || resolved === null || (isScalar(resolved) && resolved.value === null)) return null;
    return resolved;
  }
}

/** How a wrong value is quoted in a message: strings in quotes, structures by kind. */
export function describe(value: unknown): string {
  if (isScalar(value)) return describe(value.value);
  if (isMap(value)) return 'a mapping';
  if (isSeq(value)) return 'a list';
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || value === undefined) return 'nothing';
  return String(value);
}

/** The known key a typo most likely meant: same letters ignoring case and separators, or a small edit distance. */
export function closest(key: string, known: readonly string[]): string | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/[-_]/g, '');
  const same = known.find((k) => norm(k) === norm(key));
  if (same) return same;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = distance(norm(key), norm(candidate));
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  const allowed = Math.max(1, Math.floor(Math.max(key.length, 3) / 3));
  return bestDistance <= Math.min(allowed, 3) ? best : undefined;
}

function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
