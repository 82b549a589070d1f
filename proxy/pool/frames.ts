// Follows WebSocket frame boundaries in a raw byte stream by reading frame headers only (RFC 6455
// §5.2), never payloads. The relay uses it to count messages and to know when it may insert a
// close frame of its own without cutting a frame in half.
export class FrameCounter {
  bytes = 0;
  /** Complete data messages (text or binary, fragmented ones counted once). */
  messages = 0;
  /** A close frame has passed: the peer is closing, the relay must not send one of its own. */
  closeSeen = false;
  private readonly header = Buffer.alloc(14);
  private headerLength = 0;
  private remaining = 0;

  get atBoundary(): boolean {
    return this.remaining === 0 && this.headerLength === 0;
  }

  push(chunk: Buffer): void {
    this.bytes += chunk.length;
    let i = 0;
    while (i < chunk.length) {
      if (this.remaining > 0) {
        const skip = Math.min(this.remaining, chunk.length - i);
        this.remaining -= skip;
        i += skip;
        continue;
      }
      this.header[this.headerLength++] = chunk[i++]!;
      if (this.headerLength < 2) continue;
      const b1 = this.header[1]!;
      const len7 = b1 & 0x7f;
      const needed = 2 + (len7 === 126 ? 2 : len7 === 127 ? 8 : 0) + (b1 & 0x80 ? 4 : 0);
      if (this.headerLength < needed) continue;
      this.frameComplete(len7);
    }
  }

  private frameComplete(len7: number): void {
    const b0 = this.header[0]!;
    const opcode = b0 & 0x0f;
    if (opcode === 0x8) this.closeSeen = true;
    if (b0 & 0x80 && opcode <= 0x2) this.messages++;
    this.remaining = len7 === 126 ? this.header.readUInt16BE(2) : len7 === 127 ? Number(this.header.readBigUInt64BE(2)) : len7;
    this.headerLength = 0;
  }
}

/** An unmasked (server-to-client) close frame. */
export function closeFrame(code: number, reason: string): Buffer {
  const text = Buffer.from(reason).subarray(0, 123);
  const frame = Buffer.alloc(4 + text.length);
  frame[0] = 0x88;
  frame[1] = 2 + text.length;
  frame.writeUInt16BE(code, 2);
  text.copy(frame, 4);
  return frame;
}
