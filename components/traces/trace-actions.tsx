'use client';
// What a trace offers besides viewing: its events as files (JSON, gzipped JSON, HAR) and delete
// (owners and admins, after a confirmation).
import { traceDownloadUrl, useDeleteTrace, type DownloadFormat, type Trace } from '@/lib/client/traces';
import { DeleteCapture } from '../captures/delete-capture';
import { buttonClasses } from '../ui/button';
import { DownloadIcon } from '../ui/icons';

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
        <a
          key={d.format}
          href={traceDownloadUrl(trace.id, d.format, trace.routerInstanceId)}
          download
          className={buttonClasses('secondary', 'sm')}
          title={d.title}
          aria-label={`Download ${d.label}`}
        >
          <DownloadIcon />
          {d.label}
        </a>
      ))}
    </div>
  );
}

export function DeleteTrace({
  trace,
  onDeleted,
  compact = false,
}: {
  trace: Pick<Trace, 'id' | 'routerInstanceId'>;
  onDeleted?: () => void;
  compact?: boolean;
}) {
  const remove = useDeleteTrace();
  return (
    <DeleteCapture
      noun="trace"
      description="Its events are deleted for good. The session stays in the session history, and its recording, if any, is kept."
      remove={() => remove.mutateAsync({ id: trace.id, routerId: trace.routerInstanceId })}
      onDeleted={onDeleted}
      compactLabel={compact ? `Delete trace ${trace.id.slice(0, 12)}` : undefined}
    />
  );
}
