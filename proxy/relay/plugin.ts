// What a pipeline-lane plugin sees and may do (profiles, recordings, traces, agent tools): the
// CDP messages both ways, commands of its own, and the session's end.
import type { CdpMethod, CdpResult, CdpSendParams } from '../../lib/cdp/protocol';
import type { RelayOutcome } from './types';

export interface CdpMessage {
  id?: number;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
  sessionId?: string;
}

export interface PluginContext {
  sessionId: string;
  /** Sends a command on behalf of the service; its reply is delivered here, never to the client. */
  send<M extends CdpMethod>(method: M, params?: CdpSendParams<M>, cdpSessionId?: string): Promise<CdpResult<M>>;
  /** Sends a client's command that a plugin held back (its reply goes to the client as usual). */
  forward(message: CdpMessage): void;
}

export interface PipelinePlugin {
  name: string;
  onStart?(ctx: PluginContext): void | Promise<void>;
  /** A command from the client. Return 'drop' to keep it from the provider. */
  onClientMessage?(message: CdpMessage, ctx: PluginContext): void | 'drop';
  /** A response or event from the provider. Return 'drop' to keep it from the client. */
  onProviderMessage?(message: CdpMessage, ctx: PluginContext): void | 'drop';
  onEnd?(outcome: RelayOutcome, ctx: PluginContext): void | Promise<void>;
  /**
   * The client left (or the session is being closed by the service) while the provider's browser is
   * still there: the lane keeps the provider connection open until this settles (at most
   * RELEASE_LIMIT_MS), so a plugin can still talk to the browser (a profile's final capture).
   */
  beforeRelease?(ctx: PluginContext): Promise<void>;
  /** The client is gone (the session is over for its user), though the lane may still hold the browser for beforeRelease. */
  onClientGone?(ctx: PluginContext): void;
  /**
   * Reads only the provider messages whose raw payload passes this cheap test (a screenshot is
   * not parsed for a plugin that follows navigations). Without it, the plugin reads every message.
   */
  wantsProviderMessage?(payload: Buffer): boolean;
  /** The same for the client's commands (a plugin that only follows `*.enable` calls). */
  wantsClientMessage?(payload: Buffer): boolean;
}

/** Commands a plugin sends get ids from here up, so their replies are told from the client's. */
export const INJECTED_ID_BASE = 2_000_000_000;

const ID_KEY = Buffer.from('{"id":');
const INJECTED_DIGITS = String(INJECTED_ID_BASE).length;

/**
 * Cheap test on a provider message's raw bytes: can it be the reply to an injected command? Chromium
 * writes a reply's id first (`{"id":2000000123,...`) and an event's method first, so a message that
 * starts like an event, or whose id is short, is not ours. Anything laid out otherwise is read.
 */
export function mayBeInjectedReply(payload: Buffer): boolean {
  if (payload.length < ID_KEY.length || payload.compare(ID_KEY, 0, ID_KEY.length, 0, ID_KEY.length) !== 0) return payload[2] !== 0x6d; // `{"m…`: an event
  let digits = 0;
  for (let i = ID_KEY.length; i < payload.length && payload[i]! >= 0x30 && payload[i]! <= 0x39; i++) digits++;
  return digits >= INJECTED_DIGITS;
}
