// Counts WebSocket messages in a byte stream by reading frame headers only (RFC 6455 §5.2):
// payloads are skipped, never copied or parsed. The fast lane uses it for messageCount and to
// know whether the stream sits on a frame boundary (where a close frame may be injected).

export class FrameCounter {
  messages = 0;
  bytes = 0;
  /** A close frame went by: the side that sent it ended the WebSocket properly. */
  sawClose = false;
  /** Payload bytes still to skip in the current frame. */
  private remaining = 0;
  /** Bytes of an incomplete frame header carried over from the previous chunk. */
  private header: Buffer | null = null;

  get atBoundary(): boolean {
    return this.remaining === 0 && this.header === null;
  }

  push(chunk: Buffer): void {
    this.bytes += chunk.length;
    let offset = 0;
    while (offset < chunk.length) {
      if (this.remaining > 0) {
        const skip = Math.min(this.remaining, chunk.length - offset);
        this.remaining -= skip;
        offset += skip;
        continue;
      }
      let view = chunk;
      let start = offset;
      if (this.header) {
        view = Buffer.concat([this.header, chunk.subarray(offset)]);
        start = 0;
      }
      const parsed = parseHeader(view, start);
      if (!parsed) {
        // Keep at most 14 header bytes across chunks.
        this.header = Buffer.from(view.subarray(start));
        return;
      }
      const consumedFromChunk = this.header ? parsed.headerLength - this.header.length : parsed.headerLength;
      this.header = null;
      offset += consumedFromChunk;
      if (parsed.fin && parsed.opcode < 0x8) this.messages++;
      if (parsed.opcode === 0x8) this.sawClose = true;
      this.remaining = parsed.payloadLength;
    }
  }
}

export interface FrameHeader {
  fin: boolean;
  opcode: number;
  masked: boolean;
  headerLength: number;
  payloadLength: number;
}

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

/** A server-to-client close frame (unmasked) with a code and a short UTF-8 reason. */
export function closeFrame(code: number, reason: string): Buffer {
  const text = Buffer.from(reason.slice(0, 120), 'utf8');
  const payload = Buffer.alloc(2 + text.length);
  payload.writeUInt16BE(code, 0);
  text.copy(payload, 2);
  return Buffer.concat([Buffer.from([0x88, payload.length]), payload]);
}
