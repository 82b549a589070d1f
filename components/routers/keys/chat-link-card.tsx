'use client';
// The router's chat link: one token that lets chat agents (MCP clients) open browsers on this
// router through the proxy's MCP endpoint. Owners and admins see, rotate and delete it; the API
// hides it from members, who still get the URL and the configurations with a placeholder.
import { useState } from 'react';
import { useActiveWorkspace } from '@/lib/client/me';
import { maskToken, mcpServerName, mcpUrl } from '@/lib/client/mcp-config';
import { useChatLink, useDeleteChatLink, useRotateChatLink } from '@/lib/client/router-keys';
import { useRouterInstance } from '@/lib/client/routers';
import { ErrorAlert } from '../../ui/alert';
import { Button } from '../../ui/button';
import { Card, CardBody, CardHeader, DescriptionList } from '../../ui/card';
import { CopyButton } from '../../ui/copy-button';
import { ConfirmDialog } from '../../ui/dialog';
import { EmptyState, ErrorState } from '../../ui/empty-state';
import { EyeIcon, EyeOffIcon, LinkIcon, PlusIcon, RefreshIcon, TrashIcon } from '../../ui/icons';
import { Skeleton } from '../../ui/skeleton';
import { Time } from '../../ui/time';
import { useToast } from '../../ui/toast';
import { McpConfig, McpUrl } from './mcp-config';

/** `proxyUrl`: the proxy's public address, as the Connect tab shows it. */
export function ChatLinkCard({ routerId, proxyUrl }: { routerId: string; proxyUrl: string }) {
  const { canManage } = useActiveWorkspace();
  const link = useChatLink(routerId, { enabled: canManage });
  const router = useRouterInstance(routerId);
  const url = mcpUrl(proxyUrl);
  const name = mcpServerName(router.data?.slug);
  const rotate = useRotateChatLink(routerId);
  const remove = useDeleteChatLink(routerId);
  const toast = useToast();
  const [shown, setShown] = useState(false);
  const [confirm, setConfirm] = useState<'rotate' | 'delete' | null>(null);

  const description = 'Chat agents (MCP clients) use this link to open browsers on this router. Anyone holding it can, so treat it like a key.';
  if (!canManage) {
    return (
      <Card aria-label="Chat link">
        <CardHeader title="Chat link" description={description} />
        <DescriptionList items={[{ label: 'MCP URL', value: <McpUrl url={url} /> }]} />
        <CardBody className="space-y-3 border-t border-zinc-100">
          <p className="text-sm text-zinc-500">
            Only owners and admins can see or change the chat link. Ask one of them for the token: it goes where these configurations say{' '}
            <code className="font-mono text-[12px] text-zinc-700">{'<CHAT_LINK_TOKEN>'}</code>.
          </p>
          <McpConfig url={url} name={name} token={null} shown />
        </CardBody>
      </Card>
    );
  }

  const data = link.data;
  return (
    <Card aria-label="Chat link">
      <CardHeader
        title="Chat link"
        description={description}
        actions={
          data && (
            <>
              <Button size="sm" onClick={() => setConfirm('rotate')}>
                <RefreshIcon />
                Rotate
              </Button>
              <Button size="sm" variant="danger-secondary" onClick={() => setConfirm('delete')}>
                <TrashIcon />
                Delete
              </Button>
            </>
          )
        }
      />
      {link.isPending ? (
        <div className="space-y-3 px-5 py-4">
          <Skeleton className="h-4 w-72" />
          <Skeleton className="h-4 w-40" />
        </div>
      ) : link.error ? (
        <ErrorState error={link.error} onRetry={() => void link.refetch()} />
      ) : !data ? (
        <EmptyState
          icon={<LinkIcon />}
          title="No chat link"
          description="Create one to let a chat agent use this router's providers."
          action={
            <Button size="sm" loading={rotate.isPending} onClick={() => rotate.mutate(undefined, { onSuccess: () => toast('Chat link created') })}>
              {!rotate.isPending && <PlusIcon />}
              Create chat link
            </Button>
          }
        />
      ) : (
        <>
          <DescriptionList
            items={[
              { label: 'MCP URL', value: <McpUrl url={url} /> },
              {
                label: 'Link token',
                value: (
                  <div className="flex items-center gap-2">
                    <code data-testid="chat-link-token" className="min-w-0 flex-1 truncate font-mono text-[13px] text-zinc-800">
                      {shown ? data.token : maskToken(data.token)}
                    </code>
                    <Button size="sm" variant="ghost" aria-label={shown ? 'Hide token' : 'Show token'} onClick={() => setShown((s) => !s)}>
                      {shown ? <EyeOffIcon /> : <EyeIcon />}
                    </Button>
                    <CopyButton value={data.token} />
                  </div>
                ),
              },
              { label: 'Created', value: <Time value={data.createdAt} relative /> },
              { label: 'Last used', value: <Time value={data.lastUsedAt} relative fallback="Never" /> },
            ]}
          />
          <CardBody className="space-y-3 border-t border-zinc-100">
            <h3 className="text-[13px] font-semibold text-zinc-900">Connect an agent tool</h3>
            <McpConfig url={url} name={name} token={data.token} shown={shown} />
          </CardBody>
        </>
      )}
      {!data && <ErrorAlert error={rotate.error} className="mx-5 mb-4" />}

      <ConfirmDialog
        open={confirm === 'rotate'}
        onClose={() => setConfirm(null)}
        tone="primary"
        title="Rotate the chat link?"
        description="The current link stops working at once; agents need the new one."
        confirmLabel="Rotate link"
        onConfirm={() => rotate.mutateAsync(undefined)}
        onDone={() => {
          setShown(true);
          toast('Chat link rotated');
        }}
      />
      <ConfirmDialog
        open={confirm === 'delete'}
        onClose={() => setConfirm(null)}
        title="Delete the chat link?"
        description="Agents using it lose access at once. You can create a new link later."
        confirmLabel="Delete link"
        onConfirm={() => remove.mutateAsync(undefined)}
        onDone={() => toast('Chat link deleted')}
      />
    </Card>
  );
}
