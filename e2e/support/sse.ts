// Reading a Server-Sent Events response (live view) in tests.

export interface SseEvent {
  event: string;
  data: any;
  /** When the event was read (epoch ms). */
  arrived: number;
}

/** Reads events until `enough` says so, the stream ends or the deadline passes (checked as events arrive; the proxy's heartbeat comes every 15 s). */
export async function readEvents(response: Response, enough: (events: SseEvent[]) => boolean, timeoutMs = 15_000): Promise<SseEvent[]> {
  const reader = response.body!.getReader();
  const events: SseEvent[] = [];
  let text = '';
  const deadline = Date.now() + timeoutMs;
  while (!enough(events) && Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    text += Buffer.from(value).toString('utf8');
    let cut: number;
    while ((cut = text.indexOf('\n\n')) >= 0) {
      const block = text.slice(0, cut);
      text = text.slice(cut + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event && data) events.push({ event, data: JSON.parse(data), arrived: Date.now() });
    }
  }
  await reader.cancel().catch(() => {});
  return events;
}
