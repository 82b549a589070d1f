'use client';
// One session in a side panel: provider, timings, traffic, error reason, what was captured (its
// recording: live view while it runs, the player after; its trace's figures and a link to it), the
// files its browser downloaded, and (owners and admins, while it runs) Close, which drops the
// client's connection.
import { useState, type ReactNode } from 'react';
import { isApiError } from '@/lib/client/api-fetch';
import { useActiveWorkspace } from '@/lib/client/me';
import { useCloseSession, useSession, type CloseResult, type SessionDetail } from '@/lib/client/sessions';
import { Alert } from '../ui/alert';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { CopyButton } from '../ui/copy-button';
import { ConfirmDialog } from '../ui/dialog';
import { Drawer } from '../ui/drawer';
import { ErrorState } from '../ui/empty-state';
import { XCircleIcon } from '../ui/icons';
import { Money } from '../ui/money';
import { Skeleton } from '../ui/skeleton';
import { formatDateTime } from '../ui/time';
import { SessionRecording } from '../recordings/session-recording';
import { SessionTrace } from '../traces/session-trace';
import { formatBytes, formatDuration, sessionDuration, useNow } from './format';
import { SessionDownloads } from './session-downloads';
import { SessionStateBadge } from './session-state';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="px-6 py-4">
      <h3 className="mb-2 text-[12px] font-medium tracking-wide text-zinc-400 uppercase">{title}</h3>
      <dl className="space-y-2 text-sm">{children}</dl>
    </section>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-4">
      <dt className="text-zinc-500">{label}</dt>
      <dd className="min-w-0 text-right text-zinc-900">{children}</dd>
    </div>
  );
}

const yesNo = (value: boolean) => (value ? <Badge tone="accent">Yes</Badge> : <span className="text-zinc-400">No</span>);

export function SessionDrawer({ sessionId, onClose }: { sessionId: string | null; onClose: () => void }) {
  return (
    <Drawer open={sessionId !== null} onClose={onClose} title="Session">
      {sessionId && <SessionDetail key={sessionId} id={sessionId} />}
    </Drawer>
  );
}

function SessionDetail({ id }: { id: string }) {
  const session = useSession(id);
  const close = useCloseSession();
  const { canManage } = useActiveWorkspace();
  const [confirming, setConfirming] = useState(false);
  const [result, setResult] = useState<CloseResult | null>(null);
  const s = session.data;
  const now = useNow(s?.state === 'active');

  if (isApiError(session.error, 'not_found')) return <ErrorState error={session.error} className="py-16" />;
  if (session.error && !s) return <ErrorState error={session.error} onRetry={() => void session.refetch()} className="py-16" />;
  if (!s) {
    return (
      <div className="space-y-4 px-6 py-5" aria-busy="true">
        {Array.from({ length: 8 }, (_, i) => (
          <Skeleton key={i} className="h-4 w-full" />
        ))}
      </div>
    );
  }

  return (
    <div className="divide-y divide-zinc-100" data-testid="session-detail">
      <SessionHead session={s} canClose={canManage && s.state === 'active'} onClose={() => setConfirming(true)} result={result} />
      <SessionFigures session={s} now={now} />
      {s.hasReplay && (
        <section className="px-6 py-4" aria-label="Trace">
          <h3 className="mb-2 text-[12px] font-medium tracking-wide text-zinc-400 uppercase">Trace</h3>
          <SessionTrace sessionId={s.id} />
        </section>
      )}
      {s.hasRecording && (
        <section className="px-6 py-4" aria-label="Recording">
          <h3 className="mb-2 text-[12px] font-medium tracking-wide text-zinc-400 uppercase">Recording</h3>
          <SessionRecording sessionId={s.id} active={s.state === 'active'} canManage={canManage} />
        </section>
      )}
      <SessionDownloads session={s} />
      {s.state === 'active' && <p className="px-6 py-3 text-[12px] text-zinc-400">Updates every few seconds while the session runs.</p>}

      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title="Close this session?"
        description="The proxy drops the client's connection within a second. The provider's browser is not ended."
        confirmLabel="Close session"
        onConfirm={async () => setResult(await close.mutateAsync(s.id))}
        onDone={() => void session.refetch()}
      />
    </div>
  );
}

interface SessionHeadProps {
  session: SessionDetail;
  canClose: boolean;
  onClose: () => void;
  /** What the last Close said. */
  result: CloseResult | null;
}

/** The session's state, its id, the Close button, and what closing (or the session's error) said. */
function SessionHead({ session, canClose, onClose, result }: SessionHeadProps) {
  return (
    <div className="space-y-3 px-6 py-4">
      <div className="flex items-center justify-between gap-3">
        <SessionStateBadge session={session} />
        {canClose && (
          <Button variant="danger-secondary" size="sm" onClick={onClose}>
            <XCircleIcon />
            Close session
          </Button>
        )}
      </div>
      <div className="flex items-center gap-2">
        <code className="min-w-0 flex-1 truncate font-mono text-[12px] text-zinc-600" title={session.id}>
          {session.id}
        </code>
        <CopyButton value={session.id} label="Copy ID" variant="ghost" />
      </div>
      {result &&
        ('alreadyClosed' in result && result.alreadyClosed ? (
          <Alert tone="info" title="Already ended">
            The session had ended before your request ({result.state}).
          </Alert>
        ) : (
          <Alert tone="success" title="Session closed">
            The proxy dropped the client&apos;s connection. The provider&apos;s browser was not ended.
          </Alert>
        ))}
      {session.errorReason && (
        <Alert tone="danger" title="Error">
          {session.errorReason}
        </Alert>
      )}
    </div>
  );
}

/** Where the session ran, when, what went through it and what it cost, and what was captured. */
function SessionFigures({ session, now }: { session: SessionDetail; now: number }) {
  return (
    <>
      <Section title="Provider">
        <Row label="Name">{session.provider.name ?? '—'}</Row>
        <Row label="Slug">
          <code className="font-mono text-[13px]">{session.provider.slug ?? '—'}</code>
        </Row>
        <Row label="Kind">{session.kind === 'agent' ? 'Chat agent' : 'Connect'}</Row>
      </Section>
      <Section title="Timing">
        <Row label="Started">{formatDateTime(session.startedAt)}</Row>
        <Row label="Ended">{session.endedAt ? formatDateTime(session.endedAt) : <span className="text-zinc-400">Still running</span>}</Row>
        <Row label="Duration">
          <span className="tabular-nums" data-testid="session-duration">
            {formatDuration(sessionDuration(session, now))}
          </span>
        </Row>
      </Section>
      <Section title="Traffic">
        <Row label="Bytes in">
          <span className="tabular-nums">{formatBytes(session.bytesIn)}</span>
        </Row>
        <Row label="Bytes out">
          <span className="tabular-nums">{formatBytes(session.bytesOut)}</span>
        </Row>
        <Row label="Total">
          <span className="tabular-nums">{formatBytes(session.totalBytes)}</span>
        </Row>
        <Row label="Messages">
          <span className="tabular-nums">{session.messageCount.toLocaleString('en')}</span>
        </Row>
        <Row label="Billed">
          <Money millicents={session.billedMillicents} data-testid="session-billed" />
        </Row>
        {session.state === 'active' && (
          <p className="text-[13px] text-zinc-500" data-testid="traffic-note">
            So far: the proxy adds to these figures every few seconds while the session runs.
          </p>
        )}
      </Section>
      <Section title="Captured">
        <Row label="Recording">{yesNo(session.hasRecording)}</Row>
        <Row label="Trace">{yesNo(session.hasReplay)}</Row>
      </Section>
    </>
  );
}
