// Provider secrets at rest: the full address and headers, and a key-based provider's credentials,
// are AES-256-GCM ciphertext; only the display address is stored in the clear.
import { decryptText, encryptText } from '../crypto/encryption';
import { displayUrl, type ProviderHeaders } from './address';

export function sealAddress(url: string, headers: ProviderHeaders | null | undefined) {
  const hasHeaders = headers && Object.keys(headers).length > 0;
  return {
    urlEncrypted: encryptText(url),
    urlDisplay: displayUrl(url),
    headersEncrypted: hasHeaders ? encryptText(JSON.stringify(headers)) : null,
  };
}

export function openAddress(row: { urlEncrypted: string | null; headersEncrypted: string | null }): { url: string; headers: ProviderHeaders } | null {
  if (!row.urlEncrypted) return null;
  return { url: decryptText(row.urlEncrypted), headers: row.headersEncrypted ? (JSON.parse(decryptText(row.headersEncrypted)) as ProviderHeaders) : {} };
}

export const sealCredentials = (credentials: { apiKey: string }) => encryptText(JSON.stringify({ apiKey: credentials.apiKey }));

export function openCredentials(row: { credentialsEncrypted: string | null }): { apiKey: string } | null {
  return row.credentialsEncrypted ? (JSON.parse(decryptText(row.credentialsEncrypted)) as { apiKey: string }) : null;
}
