// Reads a web stream (a request or response body) up to a byte cap: the bytes, or null as soon
// as the cap is passed (the stream is cancelled then, without waiting for the sender to stop).
export async function readCapped(body: { getReader(): ReadableStreamDefaultReader<Uint8Array> }, cap: number): Promise<Buffer | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
