// The CDP sessions a client holds on the browser (flatten mode: Playwright, puppeteer and most raw
// clients), followed from the browser's Target.attachedToTarget and Target.detachedFromTarget
// events on their way to the client. When the service ends a session, the relay tells each of
// them why, as the browser would detach them (goodbye.ts). Only small single-frame messages are
// looked at (the lanes hand over those), and a message is parsed only when it names one of the
// two events.

/** Sessions followed per connection; past this, new ones are not announced (a goodbye stays small). */
export const MOST_ANNOUNCED_SESSIONS = 256;

const TARGET = Buffer.from('"Target.');
const ATTACHED = Buffer.from('"Target.attachedToTarget"');
const DETACHED = Buffer.from('"Target.detachedFromTarget"');

export class AttachedSessions {
  private readonly ids = new Set<string>();

  /** Reads one message of the browser to the client (its payload, unmasked). */
  readonly seen = (payload: Buffer): void => {
    // One scan for most messages: those that name no Target event at all.
    const at = payload.indexOf(TARGET);
    if (at < 0 || (!payload.includes(ATTACHED, at) && !payload.includes(DETACHED, at))) return;
    let message: { method?: unknown; params?: { sessionId?: unknown } };
    try {
      message = JSON.parse(payload.toString('utf8')) as typeof message;
    } catch {
      return; // not JSON: not an event of the browser
    }
    const id = message.params?.sessionId;
    if (typeof id !== 'string') return;
    if (message.method === 'Target.attachedToTarget' && this.ids.size < MOST_ANNOUNCED_SESSIONS) this.ids.add(id);
    else if (message.method === 'Target.detachedFromTarget') this.ids.delete(id);
  };

  /** The sessions still attached, oldest first. */
  get list(): string[] {
    return [...this.ids];
  }
}
