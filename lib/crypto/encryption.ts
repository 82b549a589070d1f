// AES-256-GCM for data at rest (provider addresses and credentials, router key plaintexts,
// profiles). The key is ENCRYPTION_KEY (32 bytes, base64), set by the start script from the
// data directory unless the operator provides one.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { settings } from '../config/settings';

let cachedKey: Buffer | undefined;

function key(): Buffer {
  if (cachedKey) return cachedKey;
  // Its form (32 bytes, base64) is checked with the other settings.
  const raw = settings().encryptionKey;
  if (!raw) throw new Error('ENCRYPTION_KEY is not set');
  cachedKey = Buffer.from(raw, 'base64');
  return cachedKey;
}

/** `aad` (associated data) binds the ciphertext to what it belongs to: it must be given again to decrypt. */
export function encryptBytes(plain: Buffer, aad?: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(), iv);
  if (aad) cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([Buffer.from([1]), iv, cipher.getAuthTag(), body]);
}

export function decryptBytes(sealed: Buffer, aad?: Buffer): Buffer {
  if (sealed[0] !== 1) throw new Error('unknown ciphertext version');
  const iv = sealed.subarray(1, 13);
  const tag = sealed.subarray(13, 29);
  const decipher = createDecipheriv('aes-256-gcm', key(), iv);
  if (aad) decipher.setAAD(aad);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(sealed.subarray(29)), decipher.final()]);
}

export const encryptText = (plain: string): string => encryptBytes(Buffer.from(plain, 'utf8')).toString('base64');
export const decryptText = (sealed: string): string => decryptBytes(Buffer.from(sealed, 'base64')).toString('utf8');
