// Files only their owner may read (keys, sealed webhooks and profiles, saved logins): opened without
// following a symbolic link, so one planted in their place is refused instead of read or written
// through; written whole to a 0600 temporary file that is synced and renamed over the old one, so a
// crash leaves the old content or the new, never half.
import { closeSync, constants, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** The file's bytes; null when it does not exist. A symbolic link throws (code ELOOP). */
export function readPrivateFile(file: string): Buffer | null {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Replaces the file with `data`, mode 0600. */
export function writePrivateFile(file: string, data: Buffer | string): void {
  const temp = `${file}.${process.pid}.tmp`;
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NOFOLLOW, 0o600);
  try {
    writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
}
