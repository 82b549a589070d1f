// Splits a WebSocket byte stream into whole frames (RFC 6455 §5.2) for the pipeline lane, which
// relays frame by frame: frames pass on as the bytes they arrived as (never re-framed or
// re-masked), and only messages a plugin reads are decoded. A large frame is gathered as a list of
// chunks and joined once, not copied again with every chunk.
import { randomBytes } from 'node:crypto';
import { parseHeader, type FrameHeader } from './frame-counter';

export interface Frame extends FrameHeader {
  /** The whole frame, header included, as received. */
  bytes: Buffer;
}

const MAX_HEADER = 14;

export class FrameReader {
  private parts: Buffer[] = [];
  private size = 0;
  /** Length of the frame at the front, once its header is complete (0 = not known yet). */
  private need = 0;

  push(chunk: Buffer): Frame[] {
    this.parts.push(chunk);
    this.size += chunk.length;
    if (this.need === 0) this.need = this.frontLength();
    if (this.need === 0 || this.size < this.need) return [];
    const all = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.size);
    const frames: Frame[] = [];
    let offset = 0;
    for (;;) {
      const header = parseHeader(all, offset);
      if (!header) break;
      const end = offset + header.headerLength + header.payloadLength;
      if (end > all.length) break;
      frames.push({ ...header, bytes: all.subarray(offset, end) });
      offset = end;
    }
    const rest = all.subarray(offset);
    this.parts = rest.length > 0 ? [rest] : [];
    this.size = rest.length;
    this.need = this.frontLength();
    return frames;
  }

  private frontLength(): number {
    if (this.size === 0) return 0;
    let head = this.parts[0]!;
    if (head.length < MAX_HEADER && this.parts.length > 1) head = Buffer.concat(this.parts, Math.min(this.size, MAX_HEADER * 2)).subarray(0, MAX_HEADER);
    const header = parseHeader(head, 0);
    return header ? header.headerLength + header.payloadLength : 0;
  }
}

/** The payload of a frame, unmasked when the sender masked it (a copy then; else a view). */
export function payloadOf(frame: Frame): Buffer {
  const payload = frame.bytes.subarray(frame.headerLength);
  if (!frame.masked) return payload;
  const mask = frame.bytes.subarray(frame.headerLength - 4, frame.headerLength);
  const out = Buffer.allocUnsafe(payload.length);
  for (let i = 0; i < payload.length; i++) out[i] = payload[i]! ^ mask[i & 3]!;
  return out;
}

/** A final text frame as a client sends it (masked, RFC 6455 §5.3). */
export function maskedTextFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const length = payload.length;
  const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + 4 + length);
  frame[0] = 0x81;
  if (length < 126) frame[1] = 0x80 | length;
  else if (length < 65_536) {
    frame[1] = 0x80 | 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 0x80 | 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  const mask = randomBytes(4);
  mask.copy(frame, headerLength);
  const start = headerLength + 4;
  for (let i = 0; i < length; i++) frame[start + i] = payload[i]! ^ mask[i & 3]!;
  return frame;
}
