// Commands a relay answers itself instead of passing them to the browser: the pool refuses what its
// sandboxed browsers can never do (proxy/pool/uploads.ts). The fast lane passes the client's frames
// on as they came; only a final text frame small enough to be such a command is read, and a refused
// one is answered with a CDP error in the client's own session, as the browser would answer it.
import { OP_TEXT, payloadOf, type Frame } from '../websocket/frames';

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
  refuse(command: ClientCommand): string | null;
}

/** Commands whose own parameters are this large are not what a screen refuses (file contents, scripts). */
const LARGEST_SCREENED_BYTES = 64 * 1024;
/** CDP's "server error" code, which browsers use for a command they cannot carry out. */
const CDP_SERVER_ERROR = -32000;

/** The CDP answer to send the client for a refused command in this frame, or null to pass the frame on. */
export function screenFrame(frame: Frame, screen: CommandScreen): string | null {
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
  const message = screen.refuse(command);
  if (message === null) return null;
  return JSON.stringify({ id: command.id, error: { code: CDP_SERVER_ERROR, message }, ...(command.sessionId ? { sessionId: command.sessionId } : {}) });
}
