// What `gateway browse` shows of the agent tools' answers and of its endpoint: the tools' names
// in their words as the browse commands, and an endpoint with its token masked.
import { maskToken } from './credentials';

/** The tools' words for themselves, as the commands that do the same. */
const SHELL_WORDS: [RegExp, string][] = [
  [/browser_tabs \{"action":"select","tabId":"([^"]+)"\}/g, 'gateway browse tabs select $1'],
  [/browser_session \{"action":"open"\}/g, 'gateway browse open <url>'],
  [/browser_tabs list/g, 'gateway browse tabs'],
  [/browser_(snapshot|extract|tabs|observe|screenshot|wait|eval)\b/g, 'gateway browse $1'],
  [/browser_navigate\b/g, 'gateway browse open'],
  [/without a tool call/g, 'without a command'],
];

export function forTheShell(text: string): string {
  return SHELL_WORDS.reduce((acc, [pattern, words]) => acc.replace(pattern, words), text);
}

/** An endpoint as it may be shown: the token in its query masked. */
export function maskEndpoint(href: string): string {
  const url = new URL(href);
  if (url.password) url.password = '***';
  const token = url.searchParams.get('token');
  if (!token) return url.href;
  url.searchParams.set('token', '\u0000');
  return url.href.replace('%00', maskToken(token));
}
