// The commands the pipeline lane sends the browser for its plugins: ids from their own range
// (plugin.ts), replies taken out of the stream before the client could see them, and frames held
// while the client is in the middle of a fragmented message (nothing may go in between).
import { CdpCommands } from '../../lib/cdp/commands';
import { CdpError } from '../../lib/cdp/errors';
import type { CdpMethod, CdpResult, CdpSendParams } from '../../lib/cdp/protocol';
import { maskedTextFrame } from '../websocket/frames';
import { INJECTED_ID_BASE, type CdpMessage } from './plugin';

export class InjectedCommands {
  private readonly commands: CdpCommands;
  /** Frames waiting for the client's fragmented message to end. */
  private queued: Buffer[] = [];

  /** `write` sends bytes to the browser; `clientMidMessage` says whether the client is inside a message. */
  constructor(
    private readonly write: (frame: Buffer) => void,
    private readonly clientMidMessage: () => boolean,
  ) {
    this.commands = new CdpCommands((text) => this.put(maskedTextFrame(text)), INJECTED_ID_BASE);
  }

  /** Replies are due: the browser's messages must be read for them. */
  get waiting(): boolean {
    return this.commands.waiting;
  }

  /** A command of ours; resolves with its result, rejects with its error (or when the session ends). */
  send<M extends CdpMethod>(method: M, params: CdpSendParams<M> = {}, cdpSessionId?: string): Promise<CdpResult<M>> {
    return this.commands.send(method, params, cdpSessionId);
  }

  /** A message to the browser as the client's (a plugin passing on one it held). */
  forward(message: CdpMessage): void {
    this.put(maskedTextFrame(JSON.stringify(message)));
  }

  /** True when the browser's message is the reply to one of ours (then it is settled here). */
  settle(message: CdpMessage): boolean {
    return this.commands.settle(message);
  }

  /** The client's message has ended: what waited for it goes now. */
  flush(): void {
    if (this.queued.length > 0) for (const frame of this.queued.splice(0)) this.write(frame);
  }

  /** The session ended: every command still waiting fails. */
  rejectAll(): void {
    this.commands.rejectWaiting(new CdpError('closed', 'session ended'));
  }

  private put(frame: Buffer): void {
    if (this.clientMidMessage()) this.queued.push(frame);
    else this.write(frame);
  }
}
