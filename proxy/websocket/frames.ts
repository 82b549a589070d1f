// WebSocket framing (RFC 6455 §5) for every relay in the service: the proxy's two lanes and the
// local pool. Frames are followed by their headers; payloads are skipped, never copied, except the
// few bytes of a close frame (its status code and reason) and the messages a plugin reads.
import { randomBytes } from 'node:crypto';

export const OP_CONTINUATION = 0x0;
export const OP_TEXT = 0x1;
export const OP_BINARY = 0x2;
export const OP_CLOSE = 0x8;
export const OP_PING = 0x9;
export const OP_PONG = 0xa;

/** A close frame's payload is at most 125 bytes: a 2-byte code and a reason of up to 123. */
export const MAX_CLOSE_REASON_BYTES = 123;

export interface FrameHeader {
  fin: boolean;
  opcode: number;
  masked: boolean;
  headerLength: number;
  payloadLength: number;
}

/** The status code and reason a close frame carried (code null: the frame had no payload). */
export interface CloseInfo {
  code: number | null;
  reason: string;
}

/** The header of the frame starting at `at`, or null while it is incomplete. */
export function parseHeader(buf: Buffer, at: number): FrameHeader | null {
  if (buf.length - at < 2) return null;
  const b0 = buf[at]!;
  const b1 = buf[at + 1]!;
  const masked = (b1 & 0x80) !== 0;
  let length = b1 & 0x7f;
  let headerLength = 2;
  if (length === 126) {
    if (buf.length - at < 4) return null;
    length = buf.readUInt16BE(at + 2);
    headerLength = 4;
  } else if (length === 127) {
    if (buf.length - at < 10) return null;
    length = Number(buf.readBigUInt64BE(at + 2));
    headerLength = 10;
  }
  if (masked) headerLength += 4;
  if (buf.length - at < headerLength) return null;
  return { fin: (b0 & 0x80) !== 0, opcode: b0 & 0x0f, masked, headerLength, payloadLength: length };
}

/** A data frame that ends a message: a final text, binary or continuation frame. */
export const endsMessage = (header: FrameHeader) => header.fin && header.opcode < OP_CLOSE;

/**
 * Follows one direction of a byte stream by frame headers: bytes, complete data messages (a
 * fragmented message counts once), whether the stream sits between frames (where a frame of ours
 * may go in), and the close frame when one passes.
 */
export class FrameCounter {
  bytes = 0;
  messages = 0;
  /** The close frame this side sent, once it has passed whole. */
  close: CloseInfo | null = null;
  private readonly header = Buffer.alloc(14);
  private headerLength = 0;
  /** Payload bytes of the current frame still to pass. */
  private remaining = 0;
  /**
   * When set, called with the payload of each single-frame text message of at most `textUpTo`
   * bytes that passes (the pool's relay reads the browser's download events, proxy/pool/downloads.ts).
   */
  onSmallText?: (payload: Buffer) => void;
  textUpTo = 0;
  /** The payload of a close frame, or of a small text message, being gathered. */
  private gathering: { kind: 'close' | 'text'; payload: Buffer; mask: Buffer | null; at: number } | null = null;
  /** A fragmented message has begun and its final frame has not passed yet. */
  private fragmented = false;

  /** Between two frames: a control frame (a close frame) may go in here. */
  get atBoundary(): boolean {
    return this.remaining === 0 && this.headerLength === 0;
  }

  /** Between two messages: a whole data message of ours may go in here. */
  get atMessageBoundary(): boolean {
    return this.atBoundary && !this.fragmented;
  }

  /** A close frame has started to pass: its sender is closing the WebSocket. */
  get closing(): boolean {
    return this.close !== null || this.gathering?.kind === 'close';
  }

  push(chunk: Buffer): void {
    this.bytes += chunk.length;
    let i = 0;
    while (i < chunk.length) {
      if (this.remaining > 0) {
        const take = Math.min(this.remaining, chunk.length - i);
        if (this.gathering) {
          chunk.copy(this.gathering.payload, this.gathering.at, i, i + take);
          this.gathering.at += take;
        }
        this.remaining -= take;
        i += take;
        if (this.remaining === 0 && this.gathering) this.gathered();
        continue;
      }
      this.header[this.headerLength++] = chunk[i++]!;
      if (this.headerLength < 2) continue;
      const b1 = this.header[1]!;
      const len7 = b1 & 0x7f;
      const needed = 2 + (len7 === 126 ? 2 : len7 === 127 ? 8 : 0) + (b1 & 0x80 ? 4 : 0);
      if (this.headerLength < needed) continue;
      this.headerComplete();
    }
  }

  private headerComplete(): void {
    const header = parseHeader(this.header.subarray(0, this.headerLength), 0)!;
    this.headerLength = 0;
    this.remaining = header.payloadLength;
    if (endsMessage(header)) this.messages++;
    // Control frames may stand between a message's fragments and do not end it.
    if (header.opcode < OP_CLOSE) this.fragmented = !header.fin;
    const small = this.onSmallText && header.opcode === OP_TEXT && header.fin && header.payloadLength <= this.textUpTo;
    if (header.opcode === OP_CLOSE || small) {
      const mask = header.masked ? Buffer.from(this.header.subarray(header.headerLength - 4, header.headerLength)) : null;
      this.gathering = {
        kind: small ? 'text' : 'close',
        payload: small ? Buffer.allocUnsafe(header.payloadLength) : Buffer.alloc(Math.min(header.payloadLength, 125)),
        mask,
        at: 0,
      };
      if (header.payloadLength === 0) this.gathered();
    }
  }

  private gathered(): void {
    const { kind, payload, mask } = this.gathering!;
    this.gathering = null;
    if (mask) for (let i = 0; i < payload.length; i++) payload[i] = payload[i]! ^ mask[i & 3]!;
    if (kind === 'close') this.close = parseClosePayload(payload);
    else this.onSmallText!(payload);
  }
}

/** A close frame's payload as code and reason (RFC 6455 §5.5.1). */
export function parseClosePayload(payload: Buffer): CloseInfo {
  if (payload.length < 2) return { code: null, reason: '' };
  return { code: payload.readUInt16BE(0), reason: payload.subarray(2).toString('utf8') };
}

export interface Frame extends FrameHeader {
  /** The whole frame, header included, as received. */
  bytes: Buffer;
}

/**
 * Splits a byte stream into whole frames for the pipeline lane, which relays frame by frame:
 * frames pass on as the bytes they arrived as (never re-framed or re-masked). A large frame is
 * gathered as a list of chunks and joined once, not copied again with every chunk.
 */
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

  /** The bytes of an incomplete frame held so far (handed on when another reader takes over the stream). */
  rest(): Buffer {
    return this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.size);
  }

  private frontLength(): number {
    if (this.size === 0) return 0;
    let head = this.parts[0]!;
    if (head.length < 14 && this.parts.length > 1) head = Buffer.concat(this.parts, Math.min(this.size, 28)).subarray(0, 14);
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
  return textFrame(text, randomBytes(4));
}

/** A final text frame as a server sends it (unmasked): a message the relay itself puts in. */
export function serverTextFrame(text: string): Buffer {
  return textFrame(text, null);
}

function textFrame(text: string, mask: Buffer | null): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const length = payload.length;
  const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const maskBit = mask ? 0x80 : 0;
  const frame = Buffer.allocUnsafe(headerLength + (mask ? 4 : 0) + length);
  frame[0] = 0x80 | OP_TEXT;
  if (length < 126) frame[1] = maskBit | length;
  else if (length < 65_536) {
    frame[1] = maskBit | 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = maskBit | 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  if (!mask) {
    payload.copy(frame, headerLength);
    return frame;
  }
  mask.copy(frame, headerLength);
  const start = headerLength + 4;
  for (let i = 0; i < length; i++) frame[start + i] = payload[i]! ^ mask[i & 3]!;
  return frame;
}

/**
 * The reason as a close frame can carry it: cut to 123 bytes of UTF-8 at a character boundary.
 * The one place the limit is applied; text that must match the close frame's (the relay's
 * Inspector.detached) goes through it too.
 */
export function fitCloseReason(reason: string): string {
  return utf8Prefix(reason, MAX_CLOSE_REASON_BYTES).toString('utf8');
}

/** A server-to-client (unmasked) close frame; the reason is fitted by fitCloseReason. */
export function closeFrame(code: number, reason: string): Buffer {
  const text = Buffer.from(fitCloseReason(reason), 'utf8');
  const frame = Buffer.alloc(4 + text.length);
  frame[0] = 0x80 | OP_CLOSE;
  frame[1] = 2 + text.length;
  frame.writeUInt16BE(code, 2);
  text.copy(frame, 4);
  return frame;
}

/** The longest prefix of `text` whose UTF-8 encoding fits in `max` bytes, never splitting a character. */
export function utf8Prefix(text: string, max: number): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= max) return bytes;
  let end = max;
  // Step back over continuation bytes (10xxxxxx) to the start of the cut character.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end);
}
