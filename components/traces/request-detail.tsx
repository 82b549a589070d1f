'use client';
// One request in full: where it went and what came back, where its time went (ResourceTiming), and
// both sets of headers. Credentials were never stored: their values read `[redacted]`.
import { useState, type ReactNode } from 'react';
import { isFailedRequest, timingPhases, type NetworkRequest } from '@/lib/client/trace-model';
import { formatAt, formatMs, type TimeAxis } from '@/lib/client/trace-timeline';
import type { Headers } from '@/lib/traces/format';
import { REDACTED } from '@/lib/traces/redact';
import { formatBytes } from '../sessions/format';
import { cn } from '../ui/cn';
import { CopyButton } from '../ui/copy-button';
import { XIcon } from '../ui/icons';

type Part = 'headers' | 'timing';

export function RequestDetail({ request: r, axis, onClose }: { request: NetworkRequest; axis: TimeAxis; onClose: () => void }) {
  const failed = isFailedRequest(r);
  const phases = timingPhases(r);
  const total = r.end === null ? null : r.end - r.start;
  const [part, setPart] = useState<Part>('headers');
  return (
    <aside
      aria-label="Request details"
      className="min-w-0 self-start overflow-hidden rounded-lg border border-zinc-200 bg-white text-[13px] xl:sticky xl:top-4"
    >
      <RequestTitle request={r} failed={failed} onClose={onClose} />
      <PartTabs part={part} onChoose={setPart} />
      {part === 'timing' ? (
        <div role="tabpanel" aria-label="Timing" className="px-4 py-3">
          {total === null ? <p className="text-zinc-500">The request had not finished when the trace ended.</p> : <Timing phases={phases} total={total} />}
        </div>
      ) : (
        <div role="tabpanel" aria-label="Headers" className="max-h-[75vh] divide-y divide-zinc-100 overflow-y-auto">
          <GeneralFacts request={r} axis={axis} total={total} failed={failed} />
          <HeaderList title="Response headers" headers={r.responseHeaders} empty={r.error ? 'No response: the request failed.' : 'No response.'} />
          <HeaderList title="Request headers" headers={r.requestHeaders} empty="No headers." />
        </div>
      )}
    </aside>
  );
}

/** The method and URL, what came back, and the close button. */
function RequestTitle({ request: r, failed, onClose }: { request: NetworkRequest; failed: boolean; onClose: () => void }) {
  return (
    <div className="flex items-start justify-between gap-3 border-b border-zinc-100 px-4 py-3">
      <div className="min-w-0">
        <p className="truncate font-medium text-zinc-900" title={r.url}>
          <span className="mr-1.5 font-mono text-[11px] text-zinc-400">{r.method}</span>
          {r.url}
        </p>
        <p className={cn('tabular-nums', failed ? 'text-red-600' : 'text-zinc-500')}>
          {r.status !== null ? `${r.status} ${r.statusText}`.trim() : r.error ? 'Failed' : 'No response'}
          {r.error && <span> · {r.error.text}</span>}
        </p>
      </div>
      <button
        type="button"
        onClick={onClose}
        className="-mr-1.5 rounded-md p-1.5 text-zinc-400 hover:bg-zinc-100 hover:text-zinc-600"
        aria-label="Close request details"
      >
        <XIcon className="size-4" />
      </button>
    </div>
  );
}

/** Headers or timing: which part of the request is shown. */
function PartTabs({ part, onChoose }: { part: Part; onChoose: (part: Part) => void }) {
  return (
    <div role="tablist" aria-label="Request" className="flex gap-5 border-b border-zinc-100 px-4">
      {(['headers', 'timing'] as const).map((p) => (
        <button
          key={p}
          type="button"
          role="tab"
          aria-selected={part === p}
          onClick={() => onChoose(p)}
          className={cn(
            '-mb-px border-b-2 pt-2 pb-1.5 font-medium',
            part === p ? 'border-accent-600 text-zinc-900' : 'border-transparent text-zinc-500 hover:text-zinc-800',
          )}
        >
          {p === 'headers' ? 'Headers' : 'Timing'}
        </button>
      ))}
    </div>
  );
}

/** Where the request went, what came back, how much and when. */
function GeneralFacts({ request: r, axis, total, failed }: { request: NetworkRequest; axis: TimeAxis; total: number | null; failed: boolean }) {
  return (
    <Section title="General">
      <Pair name="URL">
        <span className="flex items-start gap-2">
          <span className="min-w-0 flex-1 font-mono text-[12px] break-all text-zinc-800">{r.url}</span>
          <CopyButton value={r.url} label="Copy URL" variant="ghost" className="-my-1" />
        </span>
      </Pair>
      <Pair name="Method">{r.method}</Pair>
      <Pair name="Status">
        <span className={cn('tabular-nums', failed && 'font-medium text-red-600')}>{r.status !== null ? `${r.status} ${r.statusText}`.trim() : '—'}</span>
      </Pair>
      {r.error && (
        <Pair name="Error">
          <span className="font-mono text-[12px] text-red-600">{r.error.text}</span>
          {r.error.canceled && <span className="text-zinc-500"> (canceled)</span>}
          {r.error.blockedReason && <span className="text-zinc-500"> (blocked: {r.error.blockedReason})</span>}
        </Pair>
      )}
      {r.redirectedTo && (
        <Pair name="Redirected to">
          <span className="font-mono text-[12px] break-all">{r.redirectedTo}</span>
        </Pair>
      )}
      <Pair name="Type">
        {r.type}
        {r.mimeType ? <span className="text-zinc-500"> · {r.mimeType}</span> : null}
      </Pair>
      <Pair name="Remote address">{r.remoteAddress ? <span className="font-mono text-[12px]">{r.remoteAddress}</span> : <Muted>—</Muted>}</Pair>
      <Pair name="Protocol">{r.protocol ?? <Muted>—</Muted>}</Pair>
      <Pair name="Transferred">{r.fromCache ? 'from cache' : r.transferBytes !== null ? formatBytes(r.transferBytes) : <Muted>—</Muted>}</Pair>
      {r.postDataBytes !== undefined && (
        <Pair name="Request body">
          {formatBytes(r.postDataBytes)} <Muted>(not stored)</Muted>
        </Pair>
      )}
      {r.initiator && <Pair name="Initiator">{r.initiator}</Pair>}
      <Pair name="Started">
        <span className="tabular-nums">{formatAt(axis, r.start)}</span>
      </Pair>
      <Pair name="Duration">
        <span className="tabular-nums">{total === null ? 'unfinished' : formatMs(total)}</span>
      </Pair>
    </Section>
  );
}

function Timing({ phases, total }: { phases: { name: string; ms: number }[]; total: number }) {
  const longest = Math.max(total, ...phases.map((p) => p.ms), 1);
  return (
    <div className="space-y-1.5" data-testid="request-timing">
      {phases.map((p) => (
        <div key={p.name} className="grid grid-cols-[150px_minmax(0,1fr)_70px] items-center gap-2">
          <span className="text-zinc-600">{p.name}</span>
          <span className="relative h-2 rounded-sm bg-zinc-100">
            <span className="absolute inset-y-0 left-0 rounded-sm bg-accent-500" style={{ width: `max(1px, ${(p.ms / longest) * 100}%)` }} />
          </span>
          <span className="text-right text-zinc-700 tabular-nums">{formatMs(p.ms)}</span>
        </div>
      ))}
      <div className="grid grid-cols-[150px_minmax(0,1fr)_70px] items-center gap-2 border-t border-zinc-100 pt-1.5 font-medium">
        <span className="text-zinc-700">Total</span>
        <span />
        <span className="text-right text-zinc-900 tabular-nums">{formatMs(total)}</span>
      </div>
      {phases.length === 0 && <p className="text-zinc-500">No timing breakdown: the browser reported none for this request.</p>}
    </div>
  );
}

function HeaderList({ title, headers, empty }: { title: string; headers: Headers | null; empty: string }) {
  const entries = headers ? Object.entries(headers) : [];
  return (
    <Section title={`${title}${entries.length ? ` (${entries.length})` : ''}`} label={title}>
      {entries.length === 0 ? (
        <p className="text-zinc-500">{empty}</p>
      ) : (
        <dl className="space-y-1 font-mono text-[12px]">
          {entries.map(([name, value]) => (
            <div key={name} className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] gap-3" data-header={name.toLowerCase()}>
              <dt className="break-all text-zinc-500">{name}</dt>
              <dd className="break-all text-zinc-900">
                {value === REDACTED ? (
                  <span className="text-zinc-400 italic" title="not stored">
                    {REDACTED}
                  </span>
                ) : (
                  value
                )}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </Section>
  );
}

function Section({ title, label, children }: { title: string; label?: string; children: ReactNode }) {
  return (
    <section aria-label={label ?? title} className="space-y-2 px-4 py-3">
      <h3 className="text-[12px] font-medium tracking-wide text-zinc-400 uppercase">{title}</h3>
      {children}
    </section>
  );
}

function Pair({ name, children }: { name: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[110px_minmax(0,1fr)] gap-3">
      <span className="text-zinc-500">{name}</span>
      <span className="min-w-0 text-zinc-900">{children}</span>
    </div>
  );
}

const Muted = ({ children }: { children: ReactNode }) => <span className="text-zinc-400">{children}</span>;
