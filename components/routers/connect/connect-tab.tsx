'use client';
// How to connect: the router's connect URL and ready-to-run snippets. The key is filled in when
// the user was just shown one (router or key created, keys rotated) or fetches the newest one
// (owners and admins); otherwise the snippets carry a placeholder. Members see the live keys'
// prefixes and that an owner or admin hands keys out.
import Link from 'next/link';
import { useState } from 'react';
import { errorMessage } from '@/lib/client/api-fetch';
import { useActiveWorkspace } from '@/lib/client/me';
import { useRevealedKey } from '@/lib/client/revealed-keys';
import { useFetchCurrentKey, useRouterKeys } from '@/lib/client/router-keys';
import { Alert } from '../../ui/alert';
import { Button } from '../../ui/button';
import { Card, CardBody, CardHeader } from '../../ui/card';
import { CodeBlock } from '../../ui/code-block';
import { KeyIcon } from '../../ui/icons';
import { ConnectOptionsCard } from './connect-options';
import { connectUrl, snippets, type ConnectOptions } from './snippets';

export function ConnectTab({ routerId, proxyUrl, proxyUrlConfigured }: { routerId: string; proxyUrl: string; proxyUrlConfigured: boolean }) {
  const key = useRevealedKey(routerId);
  const fetchKey = useFetchCurrentKey(routerId);
  const { canManage } = useActiveWorkspace();
  const [options, setOptions] = useState<ConnectOptions>({ provider: '', profile: '', readOnly: false, record: false, observability: false });
  const url = connectUrl(proxyUrl, key, options);

  return (
    <div className="space-y-6">
      <Card aria-label="Connect URL">
        <CardHeader
          title="Connect URL"
          description="One WebSocket address for every script: the router picks a provider for each connection, fails over and queues. Refusals come before the socket opens, as an HTTP status with a plain-text reason."
        />
        <CardBody className="space-y-4">
          <KeyState
            routerId={routerId}
            routerKey={key}
            canManage={canManage}
            fetching={fetchKey.isPending}
            onFetch={() => fetchKey.mutate()}
            error={fetchKey.error}
          />
          <CodeBlock title="WebSocket URL" label="Connect URL" code={url} wrap />
          {!proxyUrlConfigured && (
            <p className="text-[13px] text-zinc-500">
              The address is this dashboard&apos;s host with the proxy&apos;s port. If scripts reach the proxy another way (TLS in front, another host name),
              the operator sets <code className="font-mono text-[12px] text-zinc-700">PUBLIC_PROXY_URL</code> and it shows here.
            </p>
          )}
        </CardBody>
      </Card>

      <ConnectOptionsCard routerId={routerId} options={options} onChange={setOptions} />

      <section aria-label="Snippets" className="space-y-4">
        <div>
          <h2 className="text-[15px] font-semibold text-zinc-900">Snippets</h2>
          <p className="text-[13px] text-zinc-500">
            Copy one into a file and run it. The response to the upgrade names the session (X-Session-Id) and the provider (X-Provider). The data API takes the
            same key for one browser action per HTTP call, no CDP client needed.
          </p>
        </div>
        {snippets(url, proxyUrl, key).map((s) => (
          <CodeBlock key={s.id} title={s.title} label={`${s.title} snippet`} code={s.code} />
        ))}
      </section>
    </div>
  );
}

function KeyState({
  routerId,
  routerKey,
  canManage,
  fetching,
  onFetch,
  error,
}: {
  routerId: string;
  routerKey: string | null;
  canManage: boolean;
  fetching: boolean;
  onFetch: () => void;
  error: unknown;
}) {
  if (routerKey) {
    return (
      <Alert tone="success" title="Your router key is filled in">
        The snippets below carry <code className="font-mono text-[12px]">{routerKey.slice(0, 11)}…</code>. Keep them out of shared repositories; rotate the keys
        if one leaks.
      </Alert>
    );
  }
  if (!canManage) return <MemberKeyNote routerId={routerId} />;
  return (
    <div className="space-y-2">
      <Alert
        tone="info"
        title="Replace <ROUTER_KEY> with a router key"
        action={
          <Button size="sm" onClick={onFetch} loading={fetching}>
            {!fetching && <KeyIcon />}
            Fill in the newest key
          </Button>
        }
      >
        Or create a key for this script on the{' '}
        <Link href={`/routers/${routerId}/keys`} className="font-medium underline">
          Keys
        </Link>{' '}
        tab.
      </Alert>
      {error ? <Alert tone="danger">{errorMessage(error)}</Alert> : null}
    </div>
  );
}

/**
 * A member never gets a key's plaintext (the spec reserves it to owners and admins): they see
 * which live keys exist, by prefix, and whom to ask.
 */
function MemberKeyNote({ routerId }: { routerId: string }) {
  const keys = useRouterKeys(routerId);
  const live = keys.data?.filter((k) => !k.revokedAt) ?? [];
  return (
    <Alert tone="info" title="Replace <ROUTER_KEY> with a router key">
      <p>An owner or admin of this workspace creates router keys and hands them out; ask one of them for a key for your script.</p>
      {keys.data && (
        <div className="mt-2" data-testid="live-key-prefixes">
          {live.length === 0 ? (
            <p>This router has no live key yet.</p>
          ) : (
            <>
              <p>Live keys of this router (a key starts with its prefix):</p>
              <ul className="mt-1 space-y-0.5" aria-label="Live router keys">
                {live.map((k) => (
                  <li key={k.id}>
                    <code className="font-mono text-[12px]">{k.prefix}…</code> <span className="opacity-80">{k.label}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </Alert>
  );
}
