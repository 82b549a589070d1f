// The end of a session on the local pool: the files its browser downloaded are copied from the pool
// (proxy/pool/downloads.ts) into the blob store, one SessionDownload each (lib/downloads/store.ts),
// then freed on the pool. Within the per-session limits, in the order they were saved; a file past
// a limit is left out and logged. A failure here is logged and never touches the session's outcome.
import { DOWNLOADS_MAX_BYTES, DOWNLOADS_MAX_FILES, saveDownload } from '../../lib/downloads/store';
import { readCapped } from '../../lib/http/read-capped';
import { log } from '../../lib/log';
import { egressFetch } from '../../lib/net/egress-connect';
import { httpHeaders, httpOrigin } from '../../lib/providers/address';
import type { UpstreamTarget } from '../connect/upstream-target';
import type { Upstream } from '../websocket/dial';

const POOL_WAIT_MS = 40_000;

interface PoolFile {
  index: number;
  name: string;
  size: number;
}

/** The pool session behind an upstream (its 101's headers), or null for a browser that is not the pool's. */
export function poolSessionOf(upstream: Upstream): { id: string; key: string } | null {
  const id = upstream.headers['x-pool-session'];
  const key = upstream.headers['x-pool-snapshot-key'];
  return typeof id === 'string' && typeof key === 'string' ? { id, key } : null;
}

export interface CollectOptions {
  limits?: { files: number; bytes: number };
  /** Where each file goes (default: the blob store and a SessionDownload row). */
  save?: (file: Parameters<typeof saveDownload>[0]) => Promise<unknown>;
}

/** Copies a finished pool session's downloads; resolves to how many were stored. */
export async function collectDownloads(
  input: { target: UpstreamTarget; pool: { id: string; key: string }; sessionId: string; workspaceId: string },
  options: CollectOptions = {},
): Promise<number> {
  const limits = options.limits ?? { files: DOWNLOADS_MAX_FILES, bytes: DOWNLOADS_MAX_BYTES };
  const save = options.save ?? saveDownload;
  const base = `${httpOrigin(input.target.url)}/pool/sessions/${encodeURIComponent(input.pool.id)}/downloads`;
  const call = (suffix: string, method = 'GET') =>
    egressFetch(input.target.policy, `${base}${suffix}`, {
      method,
      headers: { ...httpHeaders(input.target.url, input.target.headers), 'X-Pool-Snapshot-Key': input.pool.key },
      signal: AbortSignal.timeout(POOL_WAIT_MS),
      redirect: 'manual',
    });
  const listed = await call('');
  if (listed.status !== 200) throw new Error(`pool downloads: HTTP ${listed.status}`);
  const { files } = (await listed.json()) as { files: PoolFile[] };
  if (files.length === 0) return 0;
  let stored = 0;
  let bytes = 0;
  const left: string[] = [];
  for (const file of files) {
    if (stored >= limits.files || bytes + file.size > limits.bytes) {
      left.push(file.name);
      continue;
    }
    const response = await call(`/${file.index}`);
    const data = response.body ? await readCapped(response.body, file.size) : null;
    if (response.status !== 200 || !data || data.length !== file.size) throw new Error(`pool download ${file.index}: HTTP ${response.status}`);
    await save({ workspaceId: input.workspaceId, sessionId: input.sessionId, name: file.name, data });
    stored++;
    bytes += file.size;
  }
  if (left.length > 0)
    log.warn({ sessionId: input.sessionId, left: left.slice(0, 10), leftCount: left.length, limits }, "downloads past the session's limits were not kept");
  await call('', 'DELETE')
    .then((r) => r.body?.cancel())
    .catch(() => {});
  return stored;
}
