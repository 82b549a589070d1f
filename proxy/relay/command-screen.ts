// Commands a relay answers or changes instead of passing them to the browser as they came: the pool
// refuses what its sandboxed browsers can never do (proxy/pool/uploads.ts) and points downloads at
// the session's own folder (proxy/pool/downloads.ts). The fast lane passes the client's frames on as
// they came; only a final text frame small enough to be such a command is read. A refused one is
// answered with a CDP error in the client's own session, as the browser would answer it; a changed
// one goes to the browser as a new frame in its place.
import { maskedTextFrame, OP_TEXT, payloadOf, type Frame } from '../websocket/frames';

/** A command as a client sends it. */
export interface ClientCommand {
  id: number;
  method: string;
  params?: Record<string, unknown>;
  sessionId?: string;
}

export interface CommandScreen {
  /** The methods it looks at; frames that cannot name one of them pass unread. */
  methods: string[];
  /** The error message for a command it refuses, or null to pass it on. */
  refuse?(command: ClientCommand): string | null;
  /** The command to send the browser instead, or null to pass it on as it came. */
  rewrite?(command: ClientCommand): ClientCommand | null;
  /** Events of the browser it reads on their way to the client (small single-frame messages only). */
  watch?: { events: string[]; seen(event: { method: string; params?: Record<string, unknown> }): void };
}

/** The largest message of the browser a screen's `watch` reads (events it wants are small). */
export const LARGEST_WATCHED_BYTES = 16 * 1024;

/** The `watch` of a screen as a reader of the browser's small text messages (FrameCounter.onSmallText). */
export function eventReader(watch: NonNullable<CommandScreen['watch']>): (payload: Buffer) => void {
  return (payload) => {
    if (!watch.events.some((method) => payload.includes(`"${method}"`))) return;
    try {
      const message = JSON.parse(payload.toString('utf8')) as { method?: unknown; params?: Record<string, unknown> };
      if (typeof message.method === 'string' && watch.events.includes(message.method)) watch.seen({ method: message.method, params: message.params });
    } catch {
      // not JSON: nothing a screen watches for
    }
  };
}

/** What to do with one frame: answer the client, or send the browser another frame in its place. */
export type Screened = { answer: string } | { replacement: Buffer };

/** Several screens as one: each command goes to the screens that look at its method, in order. */
export function screens(...list: CommandScreen[]): CommandScreen {
  const of = (command: ClientCommand) => list.filter((screen) => screen.methods.includes(command.method));
  return {
    methods: [...new Set(list.flatMap((screen) => screen.methods))],
    refuse: (command) =>
      of(command)
        .map((screen) => screen.refuse?.(command) ?? null)
        .find((message) => message !== null) ?? null,
    rewrite: (command) => of(command).reduce<ClientCommand | null>((changed, screen) => screen.rewrite?.(changed ?? command) ?? changed, null),
    watch: {
      events: [...new Set(list.flatMap((screen) => screen.watch?.events ?? []))],
      seen: (event) => list.forEach((screen) => screen.watch?.events.includes(event.method) && screen.watch.seen(event)),
    },
  };
}

/** Commands whose own parameters are this large are not what a screen refuses (file contents, scripts). */
const LARGEST_SCREENED_BYTES = 64 * 1024;
/** CDP's "server error" code, which browsers use for a command they cannot carry out. */
const CDP_SERVER_ERROR = -32000;

/** The CDP answer to a refused command in this frame, or the frame to send instead; null to pass the frame on. */
export function screenFrame(frame: Frame, screen: CommandScreen): Screened | null {
  if (!frame.fin || frame.opcode !== OP_TEXT || frame.payloadLength > LARGEST_SCREENED_BYTES) return null;
  const text = payloadOf(frame).toString('utf8');
  if (!screen.methods.some((method) => text.includes(`"${method}"`))) return null;
  let command: ClientCommand;
  try {
    command = JSON.parse(text) as ClientCommand;
  } catch {
    return null; // not JSON: the browser answers it as it answers any bad message
  }
  if (typeof command.id !== 'number' || !screen.methods.includes(command.method)) return null;
  const message = screen.refuse?.(command) ?? null;
  if (message !== null)
    return {
      answer: JSON.stringify({ id: command.id, error: { code: CDP_SERVER_ERROR, message }, ...(command.sessionId ? { sessionId: command.sessionId } : {}) }),
    };
  const changed = screen.rewrite?.(command) ?? null;
  return changed === null ? null : { replacement: maskedTextFrame(JSON.stringify(changed)) };
}
