// Copy-paste configuration for the agent tools that speak MCP, pointed at the proxy's /mcp endpoint
// with a router's chat link. Pure strings, so the shapes each tool expects are tested here.

export const CHAT_LINK_PLACEHOLDER = '<CHAT_LINK_TOKEN>';

export type McpClientId = 'claude-code' | 'claude-desktop' | 'cursor' | 'vscode';

export interface McpSnippet {
  /** Where the text goes: a terminal, a settings field, a file. */
  title: string;
  code: string;
}

export interface McpClientConfig {
  id: McpClientId;
  label: string;
  snippets: McpSnippet[];
}

/** `<proxy>/mcp` over HTTP(S): the connect address is ws(s)://, the MCP endpoint is plain HTTP on the same port. */
export function mcpUrl(proxyUrl: string): string {
  return `${proxyUrl.replace(/^ws(s?):/, 'http$1:').replace(/\/+$/, '')}/mcp`;
}

/** The name the tools list the server under; one per router so several routers can sit side by side. */
export function mcpServerName(routerSlug: string | null | undefined): string {
  const slug = (routerSlug ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug ? `browser-router-${slug}` : 'browser-router';
}

/** The first characters of a secret, then dots: enough to tell two tokens apart. */
export function maskToken(token: string): string {
  return `${token.slice(0, 8)}${'•'.repeat(24)}`;
}

/** `text` with every occurrence of `token` replaced by its masked form. */
export function maskIn(text: string, token: string): string {
  return token ? text.split(token).join(maskToken(token)) : text;
}

/**
 * mcp-remote refuses plain http:// except to localhost and 127.0.0.1 unless given --allow-http; a
 * proxy reached over a LAN address without TLS needs the flag.
 */
function needsAllowHttp(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  return protocol === 'http:' && hostname !== 'localhost' && hostname !== '127.0.0.1';
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

export function mcpConfigs({ url, name, token }: { url: string; name: string; token: string }): McpClientConfig[] {
  const bearer = `Bearer ${token}`;
  return [
    {
      id: 'claude-code',
      label: 'Claude Code',
      snippets: [
        {
          title: 'Terminal',
          // --header takes several values, so it comes after the name and URL or it swallows them.
          code: `claude mcp add --transport http ${name} ${url} --header "Authorization: ${bearer}"`,
        },
      ],
    },
    {
      id: 'claude-desktop',
      label: 'Claude Desktop',
      snippets: [
        // A custom connector takes a URL (and OAuth settings), not a static header: the token rides in
        // the URL. Chat link tokens are base64url, so they need no escaping there.
        { title: 'Settings → Connectors → Add custom connector: URL', code: `${url}?token=${token}` },
        {
          title: 'claude_desktop_config.json',
          code: json({
            mcpServers: {
              [name]: {
                command: 'npx',
                // No space inside the header argument: Claude Desktop on Windows splits arguments at spaces.
                args: ['-y', 'mcp-remote', url, ...(needsAllowHttp(url) ? ['--allow-http'] : []), '--header', 'Authorization:${AUTH_HEADER}'],
                env: { AUTH_HEADER: bearer },
              },
            },
          }),
        },
      ],
    },
    {
      id: 'cursor',
      label: 'Cursor',
      snippets: [{ title: '~/.cursor/mcp.json', code: json({ mcpServers: { [name]: { url, headers: { Authorization: bearer } } } }) }],
    },
    {
      id: 'vscode',
      label: 'VS Code',
      snippets: [{ title: '.vscode/mcp.json', code: json({ servers: { [name]: { type: 'http', url, headers: { Authorization: bearer } } } }) }],
    },
  ];
}
