'use client';
// A session's downloads inside its detail panel: each file the browser saved on the local pool
// (collected when the session ends) with its size, when it was stored, and a link that fetches it
// (the dashboard's cookie authenticates it; the server names the file by Content-Disposition).
// A traced session on another provider lists what its browser downloaded there, without a link:
// the provider keeps those files.
import { useSessionDownloads } from '@/lib/client/downloads';
import { buttonClasses } from '../ui/button';
import { ErrorAlert } from '../ui/alert';
import { DownloadIcon } from '../ui/icons';
import { Skeleton } from '../ui/skeleton';
import { Time } from '../ui/time';
import { formatBytes } from './format';

const EXPLAINED =
  'Files the browser downloads on the local pool appear here once the session ends; on other providers, those of a traced session are listed (the provider keeps the files).';

export function SessionDownloads({ session }: { session: { id: string; state: string; endedAt: string | null } }) {
  const downloads = useSessionDownloads(session);
  const items = downloads.data?.items;

  let body;
  if (session.state === 'active') body = <p className="text-[13px] text-zinc-500">{EXPLAINED}</p>;
  else if (downloads.error && !items) body = <ErrorAlert error={downloads.error} />;
  else if (!items) body = <Skeleton className="h-8 w-full rounded-lg" />;
  else if (items.length === 0)
    body = (
      <p className="text-[13px] text-zinc-500" data-testid="downloads-empty">
        None. {EXPLAINED}
      </p>
    );
  else {
    body = (
      <ul className="divide-y divide-zinc-100 rounded-lg border border-zinc-200" aria-label="Downloaded files">
        {items.map((file) => (
          <li key={file.id} className="flex items-center gap-3 px-3 py-2">
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm text-zinc-900" title={file.name}>
                {file.name}
              </p>
              <p className="text-[12px] text-zinc-500">
                <span className="tabular-nums">{formatBytes(file.sizeBytes)}</span> · <Time value={file.createdAt} relative />
              </p>
            </div>
            {file.url ? (
              <a href={file.url} download className={buttonClasses('secondary', 'sm')} aria-label={`Download ${file.name}`}>
                <DownloadIcon />
                Download
              </a>
            ) : (
              <span className="text-[12px] text-zinc-500" title={file.sourceUrl ?? undefined}>
                Kept by the provider
              </span>
            )}
          </li>
        ))}
      </ul>
    );
  }

  return (
    <section className="px-6 py-4" aria-label="Downloads" data-testid="session-downloads">
      <h3 className="mb-2 text-[12px] font-medium tracking-wide text-zinc-400 uppercase">Downloads{items && items.length > 0 ? ` (${items.length})` : ''}</h3>
      {body}
    </section>
  );
}
