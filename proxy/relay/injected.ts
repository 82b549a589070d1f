// The commands the pipeline lane sends the browser for its plugins: ids from their own range
// (plugin.ts), replies taken out of the stream before the client could see them, and frames held
// while the client is in the middle of a fragmented message (nothing may go in between).
import { maskedTextFrame } from '../websocket/frames';
import { INJECTED_ID_BASE, type CdpMessage } from './plugin';

export class InjectedCommands {
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextId = INJECTED_ID_BASE;
  /** Frames waiting for the client's fragmented message to end. */
  private queued: Buffer[] = [];

  /** `write` sends bytes to the browser; `clientMidMessage` says whether the client is inside a message. */
  constructor(private readonly write: (frame: Buffer) => void, private readonly clientMidMessage: () => boolean) {}

  /** Replies are due: the browser's messages must be read for them. */
  get waiting(): boolean {
    return this.pending.size > 0;
  }

  /** A command of ours; resolves with its result, rejects with its error (or when the session ends). */
  send(method: string, params?: unknown, cdpSessionId?: string): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.put(maskedTextFrame(JSON.stringify({ id, method, params: params ?? {}, ...(cdpSessionId ? { sessionId: cdpSessionId } : {}) })));
    });
  }

  /** A message to the browser as the client's (a plugin passing on one it held). */
  forward(message: CdpMessage): void {
    this.put(maskedTextFrame(JSON.stringify(message)));
  }

  /** True when the browser's message is the reply to one of ours (then it is settled here). */
  settle(message: CdpMessage): boolean {
    if (message.id === undefined || message.id < INJECTED_ID_BASE) return false;
    const waiter = this.pending.get(message.id);
    this.pending.delete(message.id);
    if (message.error) waiter?.reject(new Error(message.error.message));
    else waiter?.resolve(message.result);
    return true;
  }

  /** The client's message has ended: what waited for it goes now. */
  flush(): void {
    if (this.queued.length > 0) for (const frame of this.queued.splice(0)) this.write(frame);
  }

  /** The session ended: every command still waiting fails. */
  rejectAll(): void {
    for (const waiter of this.pending.values()) waiter.reject(new Error('session ended'));
    this.pending.clear();
  }

  private put(frame: Buffer): void {
    if (this.clientMidMessage()) this.queued.push(frame);
    else this.write(frame);
  }
}
