'use client';
// What a recording offers besides playing: download the MP4, encode it (the first time, or again
// after a failure), and delete it (owners and admins, after a confirmation).
import { errorMessage } from '@/lib/client/api-fetch';
import { recordingVideoUrl, useDeleteRecording, useExportRecording, type Recording } from '@/lib/client/recordings';
import { Button, buttonClasses } from '../ui/button';
import { DeleteCapture } from '../captures/delete-capture';
import { DownloadIcon, RefreshIcon, VideoIcon } from '../ui/icons';
import { useToast } from '../ui/toast';
import { formatBytes } from '../sessions/format';
import type { RecordingState } from './recording-status';

/** The MP4 as a file (Content-Disposition: attachment); shown once it is ready. */
export function DownloadVideo({ recording, size = 'sm' }: { recording: Recording; size?: 'sm' | 'md' }) {
  return (
    <a
      href={recordingVideoUrl(recording.id)}
      download
      className={buttonClasses('secondary', size)}
      title={recording.mp4SizeBytes ? `MP4, ${formatBytes(recording.mp4SizeBytes)}` : 'MP4'}
    >
      <DownloadIcon />
      Download MP4
    </a>
  );
}

/** Starts the encode of a recording that has no video yet, or whose encode failed. */
export function EncodeVideo({ recording, state }: { recording: Recording; state: RecordingState }) {
  const encode = useExportRecording();
  const toast = useToast();
  const retry = state === 'failed';
  return (
    <span className="inline-flex flex-col items-end gap-1">
      <Button
        size="sm"
        variant={retry ? 'secondary' : 'primary'}
        loading={encode.isPending}
        onClick={() =>
          encode.mutate(recording.id, { onSuccess: (result) => toast('alreadyReady' in result ? 'The video is already ready' : 'Encoding started') })
        }
      >
        {!encode.isPending && (retry ? <RefreshIcon /> : <VideoIcon />)}
        {retry ? 'Retry encoding' : 'Encode video'}
      </Button>
      {encode.error ? (
        <span role="alert" className="text-[12px] text-red-600">
          {errorMessage(encode.error)}
        </span>
      ) : null}
    </span>
  );
}

export function DeleteRecording({ recording, onDeleted }: { recording: Recording; onDeleted?: () => void }) {
  const remove = useDeleteRecording();
  return (
    <DeleteCapture
      noun="recording"
      description="Its frames and its video are deleted for good. The session stays in the session history."
      remove={() => remove.mutateAsync(recording.id)}
      onDeleted={onDeleted}
    />
  );
}
