// The managed provider's storage archive (proxy/pool/README.md, Storage archives): a tar of the
// browser profile's `IndexedDB/` and `Local Storage/` folders. Its localStorage is the truth only
// while it was taken together with the profile's JSON state: a version saved elsewhere keeps the
// archive's IndexedDB but drops its localStorage, which the JSON then carries alone.
import { PROFILE_MAX_BYTES } from '../../../lib/profiles/state';
import { ARCHIVE_ROOTS, pack, unpack } from '../../pool/tar';

const LIMITS = { maxBytes: PROFILE_MAX_BYTES, maxEntries: 10_000 };
const LOCAL_STORAGE = 'Local Storage';

/** Bytes of the archive's localStorage files (what repeats the JSON's localStorage). */
export function localStorageBytes(archive: string | undefined): number {
  if (!archive) return 0;
  return unpack(Buffer.from(archive, 'base64'), ARCHIVE_ROOTS, LIMITS).reduce(
    (sum, e) => sum + (e.type === 'file' && e.path.startsWith(`${LOCAL_STORAGE}/`) ? e.data.length : 0),
    0,
  );
}

/** Whether the archive holds the browser's localStorage files. */
export function hasLocalStorage(archive: string | undefined): boolean {
  if (!archive) return false;
  return unpack(Buffer.from(archive, 'base64'), ARCHIVE_ROOTS, LIMITS).some((e) => e.type === 'file' && e.path.startsWith(`${LOCAL_STORAGE}/`));
}

/** The archive without its localStorage files; undefined when nothing is left. */
export function withoutLocalStorage(archive: string | undefined): string | undefined {
  if (!archive) return undefined;
  const kept = unpack(Buffer.from(archive, 'base64'), ARCHIVE_ROOTS, LIMITS).filter((e) => e.path !== LOCAL_STORAGE && !e.path.startsWith(`${LOCAL_STORAGE}/`));
  return kept.some((e) => e.type === 'file') ? pack(kept).toString('base64') : undefined;
}
