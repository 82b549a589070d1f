// The commands one CDP client has sent and not yet had answered: ids, each answer matched to its
// command (with a deadline where the caller gives one), and every command still waiting failed
// once the connection ends. It is the one such mechanism under every CDP client of the product:
// the WebSocket client (socket.ts: provider checks, the agent toolkit), the profile plugin's client
// on a fresh upstream socket (proxy/plugins/profile/cdp.ts) and the pipeline lane's injected
// commands (proxy/relay/injected.ts). A transport writes the text it is given and hands every
// message it reads to settle(); what an event means stays with the client. Commands and their
// answers are typed from the protocol (protocol.ts); failures are CdpErrors (errors.ts).
import { CdpError } from './errors';
import type { CdpMethod, CdpResult, CdpSendParams } from './protocol';

/** A CDP message as it arrives, command answer or event. */
export interface CdpMessage {
  id?: number;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { message?: string };
  sessionId?: string;
}

interface Pending {
  method: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer?: NodeJS.Timeout;
}

export class CdpCommands {
  private nextId: number;
  private readonly pending = new Map<number, Pending>();
  private failure: CdpError | null = null;

  /** `firstId`: the first id (the pipeline lane's own range starts far above a client's). */
  constructor(
    private readonly write: (text: string) => void,
    private readonly firstId = 1,
  ) {
    this.nextId = firstId;
  }

  /** Commands are waiting for their answers. */
  get waiting(): boolean {
    return this.pending.size > 0;
  }

  /** Why the connection ended (every later command fails with it); null while it is open. */
  get failed(): CdpError | null {
    return this.failure;
  }

  /** Resolves with the command's result; rejects with a CdpError: answered, timeout (with `timeoutMs`), or the connection's end. */
  send<M extends CdpMethod>(method: M, params: CdpSendParams<M> = {}, sessionId?: string, timeoutMs?: number): Promise<CdpResult<M>> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<CdpResult<M>>((resolve, reject) => {
      const entry: Pending = { method, resolve: resolve as (value: unknown) => void, reject };
      if (timeoutMs !== undefined) {
        entry.timer = setTimeout(() => {
          this.pending.delete(id);
          reject(CdpError.timedOut(method, timeoutMs));
        }, timeoutMs);
      }
      this.pending.set(id, entry);
      this.write(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  }

  /** True when `message` is an answer in these commands' range of ids (it is settled, or dropped, here then). */
  settle(message: CdpMessage): boolean {
    if (typeof message.id !== 'number' || message.id < this.firstId) return false;
    const entry = this.pending.get(message.id);
    if (!entry) return true; // its deadline passed, or not ours: dropped
    this.pending.delete(message.id);
    clearTimeout(entry.timer);
    if (message.error) entry.reject(CdpError.answered(entry.method, message.error.message ?? 'unknown error'));
    else entry.resolve(message.result ?? {});
    return true;
  }

  /** The connection ended: every waiting command, and every later one, fails with `error`. Only the first call counts. */
  fail(error: CdpError): void {
    if (this.failure) return;
    this.failure = error;
    this.rejectWaiting(error);
  }

  /** Every command waiting now fails with `error`; later ones are still sent (the pipeline lane at a session's end). */
  rejectWaiting(error: CdpError): void {
    for (const entry of this.pending.values()) {
      clearTimeout(entry.timer);
      entry.reject(error);
    }
    this.pending.clear();
  }
}

/** The message's JSON, or null for text that is not a CDP message. */
export function parseCdp(text: string): CdpMessage | null {
  try {
    const message = JSON.parse(text) as unknown;
    return message !== null && typeof message === 'object' ? (message as CdpMessage) : null;
  } catch {
    return null;
  }
}
