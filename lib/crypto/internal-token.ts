// The web process asks the proxy for live router state over an internal endpoint. Both processes
// hold ENCRYPTION_KEY, so the credential is derived from it (HMAC with a fixed label): nothing new
// to configure or store, and it changes when the key does. PROXY_INTERNAL_TOKEN overrides it.
import { createHmac } from 'node:crypto';
import { constantTimeEqual, hashSecret } from './secrets';
import { settings } from '../config/settings';

export function internalServiceToken(): string {
  const configured = settings().proxyInternalToken;
  if (configured) return configured;
  const key = settings().encryptionKey;
  if (!key) throw new Error('ENCRYPTION_KEY is not set');
  return `int_${createHmac('sha256', Buffer.from(key, 'base64')).update('proxy internal status v1').digest('base64url')}`;
}

/** Constant-time; hashing first makes the comparison independent of the presented length. */
export function isInternalServiceToken(presented: string | null): boolean {
  if (!presented) return false;
  return constantTimeEqual(hashSecret(presented), hashSecret(internalServiceToken()));
}
