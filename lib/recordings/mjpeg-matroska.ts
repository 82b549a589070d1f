// The smallest Matroska stream ffmpeg reads from a pipe: one MJPEG video track whose frames carry
// their own times. The encoder sends each frame once, at the time it first shows, and ffmpeg's
// `fps` filter repeats it until the next one: a frame is decoded and scaled once, not once per
// slot it stays on screen (about a fifth of the encoder's work). Live-stream form: the segment and
// its clusters have an unknown size, so nothing is written twice. EBML element ids are from the
// Matroska specification (RFC 9559).
//
// The track's size is the first frame's own: ffmpeg's MJPEG decoder takes a first picture much
// shorter than the track says for one field of an interlaced frame and never shows it (a first
// paint smaller than the page then vanished, and the video started seconds late).
const UNKNOWN_SIZE = Buffer.from('01ffffffffffffff', 'hex');
/** A block's time is a signed 16-bit offset from its cluster's, in milliseconds. */
const CLUSTER_SPAN_MS = 30_000;

const id = (hex: string) => Buffer.from(hex, 'hex');

/** An element size as an 8-byte EBML number. */
function size(n: number): Buffer {
  const out = Buffer.alloc(8);
  out.writeUIntBE(n, 2, 6);
  out[0] = 0x01;
  return out;
}

function uint(n: number): Buffer {
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(BigInt(n));
  let at = 0;
  while (at < 7 && out[at] === 0) at++;
  return out.subarray(at);
}

const element = (hex: string, ...data: Buffer[]) => {
  const body = Buffer.concat(data);
  return Buffer.concat([id(hex), size(body.length), body]);
};

export class MjpegMatroska {
  private clusterMs = -Infinity;
  private started = false;

  constructor(
    /** The size to declare when the first frame's own cannot be read. */
    private readonly fallback: { width: number; height: number },
  ) {}

  /** The EBML header, the segment's start, its info (millisecond times) and the track. */
  private header(width: number, height: number): Buffer {
    const ebml = element(
      '1a45dfa3',
      element('4286', uint(1)), // EBMLVersion
      element('42f7', uint(1)), // EBMLReadVersion
      element('42f2', uint(4)), // EBMLMaxIDLength
      element('42f3', uint(8)), // EBMLMaxSizeLength
      element('4282', Buffer.from('matroska')), // DocType
      element('4287', uint(4)), // DocTypeVersion
      element('4285', uint(2)), // DocTypeReadVersion
    );
    const info = element(
      '1549a966',
      element('2ad7b1', uint(1_000_000)),
      element('4d80', Buffer.from('browser-router')),
      element('5741', Buffer.from('browser-router')),
    );
    const track = element(
      'ae',
      element('d7', uint(1)), // TrackNumber
      element('73c5', uint(1)), // TrackUID
      element('83', uint(1)), // TrackType: video
      element('86', Buffer.from('V_MJPEG')), // CodecID
      element('e0', element('b0', uint(width)), element('ba', uint(height))), // Video: PixelWidth, PixelHeight
    );
    return Buffer.concat([ebml, id('18538067'), UNKNOWN_SIZE, info, element('1654ae6b', track)]);
  }

  /** A frame shown from `ms`: the buffers to write, in order (the JPEG itself is not copied). */
  frame(ms: number, jpeg: Buffer): Buffer[] {
    const out: Buffer[] = [];
    if (!this.started) {
      const { width, height } = jpegSize(jpeg) ?? this.fallback;
      out.push(this.header(width, height));
      this.started = true;
    }
    if (ms - this.clusterMs > CLUSTER_SPAN_MS) {
      this.clusterMs = ms;
      out.push(Buffer.concat([id('1f43b675'), UNKNOWN_SIZE, element('e7', uint(ms))]));
    }
    const head = Buffer.alloc(4);
    head[0] = 0x81; // track 1
    head.writeInt16BE(ms - this.clusterMs, 1);
    head[3] = 0x80; // keyframe
    out.push(Buffer.concat([id('a3'), size(head.length + jpeg.length), head]), jpeg);
    return out;
  }
}

/** A JPEG's size from its frame header (any SOFn marker), or null when it has none. */
export function jpegSize(jpeg: Buffer): { width: number; height: number } | null {
  let at = 2;
  while (at + 9 <= jpeg.length && jpeg[at] === 0xff) {
    const marker = jpeg[at + 1]!;
    // SOF0–SOF15, but not DHT (c4), JPG (c8) or DAC (cc), which share the range.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: jpeg.readUInt16BE(at + 5), width: jpeg.readUInt16BE(at + 7) };
    }
    at += 2 + jpeg.readUInt16BE(at + 2);
  }
  return null;
}
