// The gateway's encryption key (docs/gateway.md, "Data directory"): GW_ENCRYPTION_KEY when set
// (32 bytes, base64), else the key file in the data directory, made on first start with mode 0600
// in a 0700 directory and never opened through a symbolic link. It seals what the gateway keeps
// at rest that may carry secrets (webhook URLs added from the dashboard carry theirs in the query).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { closeSync, constants, fsyncSync, linkSync, openSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { readPrivateFile } from '../../lib/fs/private-file';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
export const KEY_FILE = 'encryption.key';

/** Something the operator must fix before the gateway can start (serve.ts says it as an error). */
export class SetupError extends Error {}

/** The key, and where it came from (`env`, `file`, or `generated` into the file just now). */
export function loadEncryptionKey(
  env: Readonly<Record<string, string | undefined>>,
  dataDir: string,
): { key: Buffer; source: 'env' | 'file' | 'generated'; file: string } {
  const file = path.join(dataDir, KEY_FILE);
  if (env.GW_ENCRYPTION_KEY) return { key: decode(env.GW_ENCRYPTION_KEY, 'GW_ENCRYPTION_KEY'), source: 'env', file };
  let saved: Buffer | null;
  try {
    saved = readPrivateFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new SetupError(`${file} is a symbolic link; refusing to follow it`);
    throw error;
  }
  if (saved) return { key: decode(saved.toString('utf8').trim(), file), source: 'file', file };
  const key = randomBytes(32);
  // Written whole to a file of our own, then linked in under the key's name: link() fails when the
  // name exists, so of two gateways starting at once one key wins and the other reads it, and a
  // crash never leaves an empty or half-written key behind.
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
  try {
    writeSync(fd, `${key.toString('base64')}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadEncryptionKey(env, dataDir);
    throw error;
  } finally {
    unlinkSync(temp);
  }
  return { key, source: 'generated', file };
}

function decode(text: string, where: string): Buffer {
  const key = Buffer.from(text, 'base64');
  if (key.length !== 32) throw new SetupError(`${where} must be 32 bytes, base64-encoded (make one with: openssl rand -base64 32)`);
  return key;
}

export function seal(key: Buffer, plain: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([Buffer.from([1]), iv, cipher.getAuthTag(), body]);
}

export function unseal(key: Buffer, sealed: Buffer): Buffer {
  if (sealed[0] !== 1) throw new SetupError('unknown ciphertext version');
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(1, 13));
  decipher.setAuthTag(sealed.subarray(13, 29));
  return Buffer.concat([decipher.update(sealed.subarray(29)), decipher.final()]);
}
