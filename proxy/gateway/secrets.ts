// The gateway's encryption key (docs/gateway.md, "Data directory"): GW_ENCRYPTION_KEY when set
// (32 bytes, base64), else the key file in the data directory, made on first start with mode 0600
// in a 0700 directory and never opened through a symbolic link. It seals what the gateway keeps
// at rest that may carry secrets (webhook URLs added from the dashboard carry theirs in the query).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { closeSync, constants, lstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { readPrivateFile } from '../../lib/fs/private-file';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
export const KEY_FILE = 'encryption.key';

export class KeyError extends Error {}

/** The key, and where it came from (`env`, `file`, or `generated` into the file just now). */
export function loadEncryptionKey(env: Readonly<Record<string, string | undefined>>, dataDir: string): { key: Buffer; source: 'env' | 'file' | 'generated'; file: string } {
  const file = path.join(dataDir, KEY_FILE);
  if (env.GW_ENCRYPTION_KEY) return { key: decode(env.GW_ENCRYPTION_KEY, 'GW_ENCRYPTION_KEY'), source: 'env', file };
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  let saved: Buffer | null;
  try {
    saved = readPrivateFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new KeyError(`${file} is a symbolic link; refusing to follow it`);
    throw error;
  }
  if (saved) return { key: decode(saved.toString('utf8').trim(), file), source: 'file', file };
  const key = randomBytes(32);
  // O_EXCL: two gateways starting at once cannot both write a key; the loser reads the winner's.
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST' && !lstatSync(file).isSymbolicLink()) return loadEncryptionKey(env, dataDir);
    throw error;
  }
  try {
    writeSync(fd, `${key.toString('base64')}\n`);
  } finally {
    closeSync(fd);
  }
  return { key, source: 'generated', file };
}

function decode(text: string, where: string): Buffer {
  const key = Buffer.from(text, 'base64');
  if (key.length !== 32) throw new KeyError(`${where} must be 32 bytes, base64-encoded (make one with: openssl rand -base64 32)`);
  return key;
}

export function seal(key: Buffer, plain: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([Buffer.from([1]), iv, cipher.getAuthTag(), body]);
}

export function unseal(key: Buffer, sealed: Buffer): Buffer {
  if (sealed[0] !== 1) throw new KeyError('unknown ciphertext version');
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(1, 13));
  decipher.setAuthTag(sealed.subarray(13, 29));
  return Buffer.concat([decipher.update(sealed.subarray(29)), decipher.final()]);
}
