'use client';
// What a trace offers besides viewing: its events as files (JSON, gzipped JSON, HAR) and delete
// (owners and admins, after a confirmation).
import { useState } from 'react';
import { traceDownloadUrl, useDeleteTrace, type DownloadFormat, type Trace } from '@/lib/client/traces';
import { Button, buttonClasses } from '../ui/button';
import { ConfirmDialog } from '../ui/dialog';
import { DownloadIcon, TrashIcon } from '../ui/icons';
import { useToast } from '../ui/toast';

const DOWNLOADS: { format: DownloadFormat; label: string; title: string }[] = [
  { format: 'json', label: 'JSON', title: 'Every event as one JSON array (the format of docs/traces.md)' },
  { format: 'gz', label: 'gzip', title: 'The same JSON array, gzipped' },
  { format: 'har', label: 'HAR', title: 'The network requests as HAR 1.2, for DevTools and HAR viewers' },
];

/** The three files; the whole trace, however many events the viewer shows. */
export function TraceDownloads({ trace }: { trace: Pick<Trace, 'id' | 'routerInstanceId'> }) {
  return (
    <div className="inline-flex items-center gap-1.5" role="group" aria-label="Downloads">
      {DOWNLOADS.map((d) => (
        <a key={d.format} href={traceDownloadUrl(trace.id, d.format, trace.routerInstanceId)} download className={buttonClasses('secondary', 'sm')} title={d.title} aria-label={`Download ${d.label}`}>
          <DownloadIcon />
          {d.label}
        </a>
      ))}
    </div>
  );
}

export function DeleteTrace({ trace, onDeleted, compact = false }: { trace: Pick<Trace, 'id' | 'routerInstanceId'>; onDeleted?: () => void; compact?: boolean }) {
  const remove = useDeleteTrace();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  return (
    <>
      {compact ? (
        <Button variant="danger-ghost" size="sm" onClick={() => setOpen(true)} aria-label={`Delete trace ${trace.id.slice(0, 12)}`} title="Delete">
          <TrashIcon />
        </Button>
      ) : (
        <Button variant="danger-secondary" size="sm" onClick={() => setOpen(true)}>
          <TrashIcon />
          Delete
        </Button>
      )}
      <ConfirmDialog
        open={open}
        onClose={() => setOpen(false)}
        title="Delete this trace?"
        description="Its events are deleted for good. The session stays in the session history, and its recording, if any, is kept."
        confirmLabel="Delete trace"
        onConfirm={() => remove.mutateAsync({ id: trace.id, routerId: trace.routerInstanceId })}
        onDone={() => {
          toast('Trace deleted');
          onDeleted?.();
        }}
      />
    </>
  );
}
