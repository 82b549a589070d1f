// gateway.yml's `providers` (docs/gateway.md, "gateway.yml"): a mapping of id to provider, or a list
// of entries that carry their `id`. Both forms go through the same checks with the same messages;
// only the key path differs (`providers.chrome.url`, `providers[0].url`). File order is kept.
import { isMap, isSeq } from 'yaml';
import type { Located, Reader } from './config-reader';
import { address, integer } from './config-values';

/** Provider ids appear in URLs (`?provider=<id>`), logs and webhook payloads. */
export const PROVIDER_ID = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export const PROVIDER_DEFAULTS = Object.freeze({ priority: 100, weight: 1 });

export interface GatewayProvider {
  id: string;
  /** ws://, wss://, http:// or https:// CDP address, `${VAR}` already substituted. */
  url: string;
  headers: Record<string, string>;
  limits: { maxConcurrent: number | null };
  /** Lower is tried first (priority-chain, and the tie-breaker of the other strategies). */
  priority: number;
  /** Share of connections under the weighted strategy. */
  weight: number;
}

const PROVIDER_KEYS = ['url', 'headers', 'limits', 'priority', 'weight'];

export function readProviders(r: Reader, at: Located): GatewayProvider[] {
  if (at.node === null) return [];
  if (isSeq(at.node)) return fromList(r, r.items(at));
  if (isMap(at.node)) return r.entries(at).flatMap(({ key, value }) => fromMapping(r, key, value) ?? []);
  r.report(at.line, at.path, `must be a list of providers or a mapping of id to provider (got ${r.shown(at)})`);
  return [];
}

function fromMapping(r: Reader, id: string, at: Located): GatewayProvider | undefined {
  checkId(r, id, at);
  if (!isMap(at.node)) return void r.report(at.line, at.path, `must be a mapping with a url (got ${r.shown(at)})`);
  return provider(r, id, at, r.entries(at, PROVIDER_KEYS));
}

function fromList(r: Reader, items: Located[]): GatewayProvider[] {
  const firstOf = new Map<string, Located>();
  const providers: GatewayProvider[] = [];
  for (const at of items) {
    if (!isMap(at.node)) {
      r.report(at.line, at.path, `must be a mapping with an id and a url (got ${r.shown(at)})`);
      continue;
    }
    const entries = r.entries(at, ['id', ...PROVIDER_KEYS]);
    const idAt = r.child(entries, at, 'id');
    const id = entryId(r, idAt);
    if (id !== undefined) checkId(r, id, idAt);
    const first = id === undefined ? undefined : firstOf.get(id);
    if (first) r.report(idAt.line, idAt.path, `"${id}" is already the id of ${first.path.replace(/\.id$/, '')}, on line ${first.line}`);
    else if (id !== undefined) firstOf.set(id, idAt);
    const read = provider(r, id ?? '', at, entries);
    if (read && id !== undefined && !first) providers.push(read);
  }
  return providers;
}

/** An entry's `id`: read as a mapping key would be (`id: 1` is "1", as `1:` is). */
function entryId(r: Reader, at: Located): string | undefined {
  const value = r.scalar(at);
  if (value === undefined) {
    if (at.node === null) r.report(at.line, at.path, 'is required');
    return undefined;
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return void r.report(at.line, at.path, `must be a string (got ${r.shown(at)})`);
}

function checkId(r: Reader, id: string, at: Located): void {
  if (PROVIDER_ID.test(id)) return;
  r.report(at.line, at.path, 'is not a valid provider id: use 1 to 63 lowercase letters, digits, "-" or "_", starting with a letter or digit');
}

function provider(r: Reader, id: string, at: Located, entries: { key: string; value: Located }[]): GatewayProvider | undefined {
  const url = address(r, r.child(entries, at, 'url'), ['ws:', 'wss:', 'http:', 'https:'], 'a ws://, wss://, http:// or https:// address');
  const headers = readHeaders(r, r.child(entries, at, 'headers'));
  const limitsAt = r.child(entries, at, 'limits');
  const limits = r.entries(limitsAt, ['maxConcurrent']);
  const maxConcurrent = integer(r, r.child(limits, limitsAt, 'maxConcurrent'), 1) ?? null;
  const priority = integer(r, r.child(entries, at, 'priority')) ?? PROVIDER_DEFAULTS.priority;
  const weight = integer(r, r.child(entries, at, 'weight'), 1) ?? PROVIDER_DEFAULTS.weight;
  return url === undefined ? undefined : { id, url, headers, limits: { maxConcurrent }, priority, weight };
}

function readHeaders(r: Reader, at: Located): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { key, value } of r.entries(at)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key)) r.report(value.line, value.path, 'is not a valid HTTP header name');
    const text = r.string(value);
    if (text === undefined) {
      if (value.node === null) r.report(value.line, value.path, 'must be a string (got nothing)');
      continue;
    }
    if (/[\r\n]/.test(text.value)) r.report(value.line, value.path, 'must not contain line breaks');
    else headers[key] = text.value;
  }
  return headers;
}
