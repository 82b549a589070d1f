// The `Range` header of a download (RFC 9110, section 14), for one file of known size. One range
// is served as asked; several ranges are answered with the whole file (a server may ignore Range,
// and players only ever ask for one); a header that is not a byte range at all is ignored the
// same way. Pure.

export type RangeVerdict =
  | { kind: 'whole' }
  | { kind: 'partial'; start: number; end: number }
  /** No byte of the range is in the file: 416 with `Content-Range: bytes *\/<size>`. */
  | { kind: 'unsatisfiable' };

const SINGLE = /^bytes=(\d*)-(\d*)$/i;

export function parseByteRange(header: string | null, size: number): RangeVerdict {
  if (!header) return { kind: 'whole' };
  const value = header.trim();
  if (value.includes(',')) return { kind: 'whole' };
  const match = SINGLE.exec(value.replace(/\s+/g, ''));
  if (!match) return { kind: 'whole' };
  const [, first, last] = match as unknown as [string, string, string];
  if (first === '' && last === '') return { kind: 'whole' };

  if (first === '') {
    // bytes=-n: the last n bytes.
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return { kind: 'whole' }; // not a valid range: ignored
  if (start >= size) return { kind: 'unsatisfiable' };
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  return { kind: 'partial', start, end };
}
