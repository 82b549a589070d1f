// A copyable curl command for one operation of the document: the server's URL, placeholders for
// path parameters and required query values, the credential as a shell variable, the example body.
import type { JsonSchema } from './schema';

export interface CurlInput {
  method: string;
  path: string;
  /** The operation's server: the web process, or the proxy. */
  server: string;
  auth: 'account' | 'cookie' | 'routerKey' | 'none';
  requiredQuery?: string[];
  body?: unknown;
  /** The success answer's media type: anything but JSON is written to a file. */
  answerType?: string;
  /** A WebSocket endpoint: the command shows the upgrade handshake. */
  websocket?: boolean;
}

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'video/mp4': 'mp4', 'application/octet-stream': 'bin', 'application/gzip': 'gz' };

export function curlCommand(input: CurlInput): string {
  const path = input.path.replace(/\{([^}]+)\}/g, '<$1>');
  const query = (input.requiredQuery ?? []).map((name) => `${name}=<${name}>`);
  const lines = [
    `curl${input.method === 'get' ? '' : ` -X ${input.method.toUpperCase()}`} "${input.server}${path}${query.length ? `?${query.join('&')}` : ''}"`,
  ];
  if (input.websocket) lines[0] = `curl -i -N "${input.server}${path}"`;
  if (input.auth === 'account') lines.push('-H "Authorization: Bearer $ACCOUNT_TOKEN"');
  if (input.auth === 'routerKey') lines.push('-H "Authorization: Bearer $ROUTER_KEY"');
  if (input.auth === 'cookie') {
    lines.push('-H "Cookie: next-auth.session-token=$SESSION_COOKIE"');
    if (input.method !== 'get') lines.push(`-H "Origin: ${input.server}"`);
  }
  if (input.websocket)
    lines.push('-H "Connection: Upgrade" -H "Upgrade: websocket"', '-H "Sec-WebSocket-Version: 13" -H "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="');
  if (input.body !== undefined) lines.push('-H "Content-Type: application/json"', `-d ${quote(JSON.stringify(input.body))}`);
  if (input.answerType && input.answerType !== 'application/json' && !input.websocket) lines.push(`-o answer.${EXTENSIONS[input.answerType] ?? 'out'}`);
  return lines.join(' \\\n  ');
}

/** Which credential an operation's security requirements ask for, as the command sends it. */
export function curlAuth(security: Record<string, string[]>[] | undefined): CurlInput['auth'] {
  const schemes = (security ?? []).flatMap((requirement) => Object.keys(requirement));
  if (schemes.includes('routerKey')) return 'routerKey';
  if (schemes.includes('accountToken')) return 'account';
  if (schemes.includes('dashboardSession')) return 'cookie';
  return 'none';
}

/** The first media type of an operation's success answer. */
export function answerType(responses: Record<string, JsonSchema>): string | undefined {
  const success = Object.entries(responses).find(([status]) => Number(status) >= 200 && Number(status) < 300)?.[1];
  return Object.keys((success?.content ?? {}) as object)[0];
}
