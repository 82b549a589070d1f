// login, logout, whoami: save, forget and show the endpoint and token the other commands use.
import { connectUrl, deleteSaved, maskToken, resolveCredentials, writeSaved, type Source } from './credentials';
import { CliError, out, paint, UsageError } from './output';
import { probeEndpoint } from './reachability';

const FROM: Record<Source, string> = { flag: 'from the command line', env: 'from the environment', saved: 'from the saved login' };

/** The URL as it may be printed: without the token the query carries. */
function shown(endpoint: string): string {
  const url = connectUrl(endpoint);
  url.search = '';
  return url.href;
}

export async function login(options: { endpoint?: string; token?: string }): Promise<void> {
  const endpoint = options.endpoint ?? process.env.GW_ENDPOINT;
  if (!endpoint) throw new UsageError('login needs the gateway address: gateway login --endpoint <url> [--token <token>]');
  const token = options.token ?? process.env.GW_TOKEN ?? null;
  connectUrl(endpoint); // a malformed address fails here, before any network
  const probe = await probeEndpoint(endpoint, token);
  if (!probe.ok) throw new CliError(`not logged in: ${probe.reason}`);
  const file = writeSaved({ endpoint, token, savedAt: new Date().toISOString() });
  const { green } = paint(process.stdout);
  out(`${green('Logged in')} to ${shown(endpoint)} (answered in ${probe.latencyMs} ms${token ? `, token ${maskToken(token)}` : ', no token'}).`);
  out(`Saved to ${file}`);
}

export function logout(): void {
  out(deleteSaved() ? 'Logged out: the saved endpoint and token are deleted.' : 'Not logged in: there was no saved login to delete.');
}

export async function whoami(): Promise<void> {
  const { endpoint, token, saved } = resolveCredentials({});
  if (!endpoint) throw new CliError('no endpoint: run gateway login --endpoint <url>, or set GW_ENDPOINT');
  const { bold, dim, green, red } = paint(process.stdout);
  const savedNote = (source: Source) => (source === 'saved' && saved ? `${FROM.saved}, ${saved.savedAt}` : FROM[source]);
  out(`${bold('endpoint')}   ${shown(endpoint.value)} ${dim(`(${savedNote(endpoint.source)})`)}`);
  out(`${bold('token')}      ${token ? `${maskToken(token.value)} ${dim(`(${savedNote(token.source)})`)}` : 'none'}`);
  const probe = await probeEndpoint(endpoint.value, token?.value);
  out(`${bold('reachable')}  ${probe.ok ? green(`yes, ${probe.latencyMs} ms`) : red(`no: ${probe.reason}`)}`);
  if (!probe.ok) process.exitCode = 1;
}
