// The pipeline lane's plugins as the lane calls them: which side's messages they read (and, from
// their cheap tests on the raw bytes, which of those must be parsed), a message handed to each in
// turn until one drops it, and their hooks at the session's start, the client's leaving, the
// release of the browser and the end. A plugin's failure never stops the relay or the session's end.
import { mayBeInjectedReply, type CdpMessage, type PipelinePlugin, type PluginContext } from './plugin';
import type { RelayOutcome } from './types';

export class LanePlugins {
  /** Some plugin reads the client's commands. */
  readonly readsClient: boolean;
  /** Some plugin reads the provider's messages. */
  readonly readsProvider: boolean;
  /** Some plugin finishes with the browser after the client left (beforeRelease). */
  readonly holdsBrowser: boolean;
  private readonly releasers: PipelinePlugin[];
  /** The readers' tests of a provider message, when every reader has one (else each message is read). */
  private readonly providerFilters: ((payload: Buffer) => boolean)[] | null;
  private readonly clientFilters: ((payload: Buffer) => boolean)[] | null;
  private toldClientGone = false;

  constructor(
    private readonly plugins: PipelinePlugin[],
    private readonly ctx: PluginContext,
  ) {
    this.readsClient = plugins.some((p) => p.onClientMessage);
    this.readsProvider = plugins.some((p) => p.onProviderMessage);
    this.releasers = plugins.filter((p) => p.beforeRelease);
    this.holdsBrowser = this.releasers.length > 0;
    const readers = plugins.filter((p) => p.onProviderMessage);
    this.providerFilters = readers.length > 0 && readers.every((p) => p.wantsProviderMessage) ? readers.map((p) => p.wantsProviderMessage!.bind(p)) : null;
    const clientReaders = plugins.filter((p) => p.onClientMessage);
    this.clientFilters =
      clientReaders.length > 0 && clientReaders.every((p) => p.wantsClientMessage) ? clientReaders.map((p) => p.wantsClientMessage!.bind(p)) : null;
  }

  start(): void {
    for (const plugin of this.plugins) void Promise.resolve(plugin.onStart?.(this.ctx)).catch(() => {});
  }

  /**
   * A provider message nobody wants read, which may pass unparsed: every reader has a test and none
   * passes it, and it cannot be the reply to an injected command while one is due (`replyDue`).
   */
  skipsProvider(payload: Buffer, replyDue: boolean): boolean {
    return this.providerFilters !== null && !(replyDue && mayBeInjectedReply(payload)) && !this.providerFilters.some((wants) => wants(payload));
  }

  /** The same for a client's command. */
  skipsClient(payload: Buffer): boolean {
    return this.clientFilters !== null && !this.clientFilters.some((wants) => wants(payload));
  }

  /** Hands a provider message to each plugin in turn; true when one dropped it. */
  dropsProvider(message: CdpMessage): boolean {
    for (const plugin of this.plugins) if (plugin.onProviderMessage?.(message, this.ctx) === 'drop') return true;
    return false;
  }

  /** Hands a client's command to each plugin in turn; true when one dropped it. */
  dropsClient(message: CdpMessage): boolean {
    for (const plugin of this.plugins) if (plugin.onClientMessage?.(message, this.ctx) === 'drop') return true;
    return false;
  }

  /** Lets the plugins finish with the browser (beforeRelease), for `limitMs` at most; then `done`. */
  release(limitMs: number, done: () => void): void {
    const hooks = Promise.all(
      this.releasers.map((p) =>
        Promise.resolve()
          .then(() => p.beforeRelease!(this.ctx))
          .catch(() => {}),
      ),
    );
    let timer!: NodeJS.Timeout;
    const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, limitMs)));
    void Promise.race([hooks, limit]).then(() => {
      clearTimeout(timer);
      done();
    });
  }

  /** Tells each plugin, once, that the client is gone. */
  clientGone(): void {
    if (this.toldClientGone) return;
    this.toldClientGone = true;
    for (const plugin of this.plugins) {
      try {
        plugin.onClientGone?.(this.ctx);
      } catch {
        // a plugin's bookkeeping must not stop the session's end
      }
    }
  }

  end(outcome: RelayOutcome): void {
    for (const plugin of this.plugins) void Promise.resolve(plugin.onEnd?.(outcome, this.ctx)).catch(() => {});
  }
}
