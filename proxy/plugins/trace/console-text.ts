// How the trace capture writes a console message (console events of docs/traces.md): its level,
// its arguments as one line of text, and where it was logged.
import { clip, URL_MAX_CHARS, type ConsoleEvent } from '../../../lib/traces/format';
import { redactUrl } from '../../../lib/traces/redact';

export function consoleLevel(type: string): ConsoleEvent['level'] {
  switch (type) {
    case 'error':
    case 'assert':
      return 'error';
    case 'warning':
      return 'warning';
    case 'info':
      return 'info';
    case 'debug':
      return 'debug';
    default:
      return 'log';
  }
}

export function logLevel(level: string): ConsoleEvent['level'] {
  if (level === 'verbose') return 'debug';
  if (level === 'error' || level === 'warning' || level === 'info') return level;
  return 'log';
}

/** A console argument as text, the way DevTools prints it in one line. */
export function describe(arg: unknown): string {
  const a = (arg ?? {}) as { type?: string; value?: unknown; unserializableValue?: string; description?: string };
  if (a.unserializableValue !== undefined) return a.unserializableValue;
  if ('value' in a) return typeof a.value === 'string' ? a.value : JSON.stringify(a.value);
  return a.description ?? a.type ?? '';
}

/** Where something happened, 1-based like an editor's lines; `extra`: the router's names to redact (redactUrl). */
export function location(
  at: { url?: string; lineNumber?: number; columnNumber?: number } | undefined,
  extra?: ReadonlySet<string>,
): { url?: string; line?: number; column?: number } {
  if (!at?.url) return {};
  return {
    url: clip(redactUrl(at.url, extra), URL_MAX_CHARS),
    ...(typeof at.lineNumber === 'number' && { line: at.lineNumber + 1 }),
    ...(typeof at.columnNumber === 'number' && { column: at.columnNumber + 1 }),
  };
}
