'use client';
// Where the chat link is used: the proxy's MCP URL and ready-to-paste configuration for the common
// agent tools. The token stays masked on screen unless the card reveals it; the copy buttons
// always copy the real text.
import { useState, type ReactNode } from 'react';
import { CHAT_LINK_PLACEHOLDER, maskIn, mcpConfigs, type McpClientId } from '@/lib/client/mcp-config';
import { CodeBlock } from '../../ui/code-block';
import { cn } from '../../ui/cn';
import { CopyButton } from '../../ui/copy-button';

const Code = ({ children }: { children: ReactNode }) => <code className="font-mono text-[12px] text-zinc-700">{children}</code>;

const notes: Record<McpClientId, ReactNode> = {
  'claude-code': (
    <>
      Run it once in a terminal. It adds the server for the current project; add <Code>--scope user</Code> before the name to have it in every project.
    </>
  ),
  'claude-desktop': (
    <>
      Either add a custom connector with this URL (Claude reaches connectors from Anthropic&apos;s servers, so the proxy needs a public HTTPS address), or add
      the server to <Code>claude_desktop_config.json</Code> (Settings → Developer → Edit Config), which runs <Code>mcp-remote</Code> on your machine with
      Node.js, and restart Claude.
    </>
  ),
  cursor: (
    <>
      The global file; <Code>.cursor/mcp.json</Code> in a project works too. Keep the file out of version control: it holds the token.
    </>
  ),
  vscode: (
    <>
      In the workspace; for every workspace, run <Code>MCP: Open User Configuration</Code> and add the server there. Keep the file out of version control: it
      holds the token.
    </>
  ),
};

/** The MCP URL with its copy button, as a description-list value. */
export function McpUrl({ url }: { url: string }) {
  return (
    <div className="flex items-center gap-2">
      <code data-testid="mcp-url" className="min-w-0 flex-1 truncate font-mono text-[13px] text-zinc-800">
        {url}
      </code>
      <CopyButton value={url} label="Copy URL" />
    </div>
  );
}

/** Tabs, one per agent tool. `token` null: the reader may not see the link, so a placeholder fills in. */
export function McpConfig({ url, name, token, shown }: { url: string; name: string; token: string | null; shown: boolean }) {
  const configs = mcpConfigs({ url, name, token: token ?? CHAT_LINK_PLACEHOLDER });
  const [selected, setSelected] = useState<McpClientId>('claude-code');
  const config = configs.find((c) => c.id === selected) ?? configs[0]!;
  const display = (code: string) => (token && !shown ? maskIn(code, token) : code);

  return (
    <div className="space-y-3">
      <div role="tablist" aria-label="Agent tool" className="flex gap-5 overflow-x-auto border-b border-zinc-200">
        {configs.map((c) => (
          <button
            key={c.id}
            type="button"
            role="tab"
            aria-selected={c.id === config.id}
            onClick={() => setSelected(c.id)}
            className={cn(
              '-mb-px border-b-2 px-0.5 pt-1 pb-2 text-[13px] font-medium whitespace-nowrap transition-colors',
              c.id === config.id ? 'border-accent-600 text-zinc-900' : 'border-transparent text-zinc-500 hover:border-zinc-300 hover:text-zinc-800',
            )}
          >
            {c.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={config.label} className="space-y-3">
        <p className="text-[13px] text-zinc-500">{notes[config.id]}</p>
        {config.snippets.map((s) => (
          <CodeBlock key={s.title} title={s.title} label={s.title} code={s.code} wrap={!s.code.includes('\n')}>
            {display(s.code)}
          </CodeBlock>
        ))}
      </div>
    </div>
  );
}
