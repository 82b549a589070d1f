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

const DESCRIPTION = 'Chat agents (MCP clients) use this link to open browsers on this router. Anyone holding it can, so treat it like a key.';

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

  if (!canManage) return <MemberChatLinkCard url={url} name={name} />;

  const data = link.data;
  return (
    <Card aria-label="Chat link">
      <CardHeader title="Chat link" description={DESCRIPTION} actions={data && <ChatLinkActions onConfirm={setConfirm} />} />
      {link.isPending ? (
        <div className="space-y-3 px-5 py-4">
          <Skeleton className="h-4 w-72" />
          <Skeleton className="h-4 w-40" />
        </div>
      ) : link.error ? (
        <ErrorState error={link.error} onRetry={() => void link.refetch()} />
      ) : !data ? (
        <NoChatLink creating={rotate.isPending} onCreate={() => rotate.mutate(undefined, { onSuccess: () => toast('Chat link created') })} />
      ) : (
        <ChatLinkDetails link={data} url={url} name={name} shown={shown} onToggle={() => setShown((v) => !v)} />
      )}
      {!data && <ErrorAlert error={rotate.error} className="mx-5 mb-4" />}

      <ChatLinkDialogs
        confirm={confirm}
        onClose={() => setConfirm(null)}
        onRotate={() => rotate.mutateAsync(undefined)}
        onRotated={() => {
          setShown(true);
          toast('Chat link rotated');
        }}
        onDelete={() => remove.mutateAsync(undefined)}
        onDeleted={() => toast('Chat link deleted')}
      />
    </Card>
  );
}

/** Rotate and Delete, each asking first. */
function ChatLinkActions({ onConfirm }: { onConfirm: (action: 'rotate' | 'delete') => void }) {
  return (
    <>
      <Button size="sm" onClick={() => onConfirm('rotate')}>
        <RefreshIcon />
        Rotate
      </Button>
      <Button size="sm" variant="danger-secondary" onClick={() => onConfirm('delete')}>
        <TrashIcon />
        Delete
      </Button>
    </>
  );
}

/** What a member sees: the URL and the configurations, with a placeholder for the token. */
function MemberChatLinkCard({ url, name }: { url: string; name: string }) {
  return (
    <Card aria-label="Chat link">
      <CardHeader title="Chat link" description={DESCRIPTION} />
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

/** Before the first link: what it is for, and the button that creates it. */
function NoChatLink({ creating, onCreate }: { creating: boolean; onCreate: () => void }) {
  return (
    <EmptyState
      icon={<LinkIcon />}
      title="No chat link"
      description="Create one to let a chat agent use this router's providers."
      action={
        <Button size="sm" loading={creating} onClick={onCreate}>
          {!creating && <PlusIcon />}
          Create chat link
        </Button>
      }
    />
  );
}

interface ChatLinkDetailsProps {
  link: NonNullable<ReturnType<typeof useChatLink>['data']>;
  url: string;
  name: string;
  shown: boolean;
  onToggle: () => void;
}

/** The link's token (masked until shown), its dates, and the agent configurations that use it. */
function ChatLinkDetails({ link, url, name, shown, onToggle }: ChatLinkDetailsProps) {
  return (
    <>
      <DescriptionList
        items={[
          { label: 'MCP URL', value: <McpUrl url={url} /> },
          {
            label: 'Link token',
            value: (
              <div className="flex items-center gap-2">
                <code data-testid="chat-link-token" className="min-w-0 flex-1 truncate font-mono text-[13px] text-zinc-800">
                  {shown ? link.token : maskToken(link.token)}
                </code>
                <Button size="sm" variant="ghost" aria-label={shown ? 'Hide token' : 'Show token'} onClick={onToggle}>
                  {shown ? <EyeOffIcon /> : <EyeIcon />}
                </Button>
                <CopyButton value={link.token} />
              </div>
            ),
          },
          { label: 'Created', value: <Time value={link.createdAt} relative /> },
          { label: 'Last used', value: <Time value={link.lastUsedAt} relative fallback="Never" /> },
        ]}
      />
      <CardBody className="space-y-3 border-t border-zinc-100">
        <h3 className="text-[13px] font-semibold text-zinc-900">Connect an agent tool</h3>
        <McpConfig url={url} name={name} token={link.token} shown={shown} />
      </CardBody>
    </>
  );
}

interface ChatLinkDialogsProps {
  confirm: 'rotate' | 'delete' | null;
  onClose: () => void;
  onRotate: () => Promise<unknown>;
  onRotated: () => void;
  onDelete: () => Promise<unknown>;
  onDeleted: () => void;
}

/** The confirmations of Rotate and Delete. */
function ChatLinkDialogs({ confirm, onClose, onRotate, onRotated, onDelete, onDeleted }: ChatLinkDialogsProps) {
  return (
    <>
      <ConfirmDialog
        open={confirm === 'rotate'}
        onClose={onClose}
        tone="primary"
        title="Rotate the chat link?"
        description="The current link stops working at once; agents need the new one."
        confirmLabel="Rotate link"
        onConfirm={onRotate}
        onDone={onRotated}
      />
      <ConfirmDialog
        open={confirm === 'delete'}
        onClose={onClose}
        title="Delete the chat link?"
        description="Agents using it lose access at once. You can create a new link later."
        confirmLabel="Delete link"
        onConfirm={onDelete}
        onDone={onDeleted}
      />
    </>
  );
}
