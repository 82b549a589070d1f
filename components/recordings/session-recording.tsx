'use client';
// A session's recording inside its detail panel on the Sessions page: live view while the session
// runs (owners and admins), the player once it has ended, and a link to the recording's own page.
import Link from 'next/link';
import { useState } from 'react';
import { useRecording, useRecordings } from '@/lib/client/recordings';
import { Button } from '../ui/button';
import { ErrorAlert } from '../ui/alert';
import { EyeIcon } from '../ui/icons';
import { Skeleton } from '../ui/skeleton';
import { LiveView } from './live-view';
import { DownloadVideo } from './recording-actions';
import { RecordingPlayer } from './recording-player';
import { RecordingBadges, recordingState } from './recording-status';
import { recordingHref } from './recordings-page';

export function SessionRecording({ sessionId, active, canManage }: { sessionId: string; active: boolean; canManage: boolean }) {
  const list = useRecordings({ sessionId });
  const id = list.data?.replays[0]?.id ?? null;
  const recording = useRecording(id);
  const [watching, setWatching] = useState(false);
  const r = recording.data;

  if (list.error || recording.error) return <ErrorAlert error={list.error ?? recording.error} />;
  if (list.data && !id) return <p className="text-[13px] text-zinc-500">The recording was deleted.</p>;
  if (!r) return <Skeleton className="aspect-video w-full rounded-lg" />;

  return (
    <div className="space-y-3" data-testid="session-recording">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <RecordingBadges recording={r} orphaned={r.orphaned} />
        <div className="flex items-center gap-2">
          {recordingState(r) === 'ready' && <DownloadVideo recording={r} />}
          <Link href={recordingHref(r.id)} className="text-[13px] font-medium text-accent-600 hover:text-accent-700">
            Open recording
          </Link>
        </div>
      </div>
      {active ? (
        canManage ? (
          watching ? (
            <LiveView sessionId={sessionId} recordingId={r.id} onClose={() => setWatching(false)} />
          ) : (
            <div className="flex items-center justify-between gap-3 rounded-lg border border-zinc-200 bg-zinc-50 px-3 py-2.5">
              <p className="text-[13px] text-zinc-600">Watch the session&apos;s pages as they change. The client&apos;s session is not affected.</p>
              <Button size="sm" variant="primary" onClick={() => setWatching(true)}>
                <EyeIcon />
                Watch live
              </Button>
            </div>
          )
        ) : (
          <p className="text-[13px] text-zinc-500">Recording while the session runs. Owners and admins can watch it live; the video is made when it ends.</p>
        )
      ) : (
        <RecordingPlayer recording={r} />
      )}
    </div>
  );
}
