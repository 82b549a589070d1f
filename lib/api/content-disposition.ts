// `Content-Disposition: attachment` for a file whose name was not made by the service (a session's
// downloads keep the name the browser saved them under): RFC 6266 with both forms, `filename="…"`
// an ASCII stand-in for old clients and `filename*=UTF-8''…` the name itself (RFC 8187, formerly
// 5987), which every current browser, curl (`-OJ`) and HTTP library prefer. A header value must be
// Latin-1 without controls, so the name never goes in as it is.

/** RFC 8187 `attr-char`s are left as they are; every other byte of the UTF-8 name is %XX. */
const ATTR_CHAR = /[A-Za-z0-9!#$&+\-.^_`|~]/;

export function encodeRfc8187(value: string): string {
  let out = '';
  for (const char of value) {
    if (ATTR_CHAR.test(char)) out += char;
    else for (const byte of Buffer.from(char, 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * The ASCII stand-in: accents dropped (`résumé` → `resume`), then anything but printable ASCII,
 * the quote, the backslash and path separators as `_`. Never empty.
 */
export function asciiFilename(name: string): string {
  const plain = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["\\/%]/gu, '_')
    .trim();
  return plain || 'download';
}

/** `attachment; filename="<ascii>"; filename*=UTF-8''<name>`. */
export function attachmentDisposition(name: string): string {
  return `attachment; filename="${asciiFilename(name)}"; filename*=UTF-8''${encodeRfc8187(name)}`;
}
