// What a session's capture makes of the profile it loaded (docs/profiles.md, Saving): cookies as
// the browser had them at the end; origins the capture read replace their loaded state, origins it
// did not read (skipped, or never visited) keep theirs; the IndexedDB archive follows the managed
// provider's snapshot. A capture that found nothing never replaces a profile that held something.
import { isEmptyState, originsOf, type OriginState, type ProfileCookie, type ProfileState } from './state';

export interface SessionCapture {
  cookies: ProfileCookie[];
  storage: Record<string, OriginState>;
  skippedOrigins: string[];
  durationMs: number;
  /**
   * The managed provider's IndexedDB snapshot: base64 (files in it), '' (the browser had none),
   * undefined (not a managed provider, or the snapshot could not be fetched: the loaded one stays).
   */
  storageArchive?: string;
  /** Bytes of that archive that repeat the JSON (its Local Storage files). */
  storageArchiveDuplicateBytes?: number;
}

/** The new version, or null when the capture is empty and the loaded state was not (keep the loaded one). */
export function mergeCapture(loaded: ProfileState, capture: SessionCapture, now = new Date()): ProfileState | null {
  const storage: Record<string, OriginState> = { ...loaded.storage };
  for (const [origin, captured] of Object.entries(capture.storage)) {
    const empty = Object.keys(captured.localStorage).length === 0 && !captured.indexedDB?.length;
    if (empty && !storage[origin]) continue;
    storage[origin] = captured;
  }
  const fresh = capture.storageArchive !== undefined;
  const archive = fresh ? capture.storageArchive || undefined : loaded.storageArchive;
  const duplicate = fresh ? capture.storageArchiveDuplicateBytes : loaded.storageArchiveDuplicateBytes;
  const next: ProfileState = {
    version: 1,
    capturedAt: now.toISOString(),
    cookies: capture.cookies,
    storage,
    meta: { capturedOrigins: [], skippedOrigins: capture.skippedOrigins, durationMs: capture.durationMs },
    ...(archive ? { storageArchive: archive, ...(duplicate ? { storageArchiveDuplicateBytes: duplicate } : {}) } : {}),
  };
  next.meta.capturedOrigins = originsOf(next);
  if (isEmptyState(next) && !isEmptyState(loaded)) return null;
  return next;
}
