// Recordings a crashed proxy left behind (docs/recordings.md, "Orphans"): their session was
// settled as errored when the proxy came back (lib/sessions/session-writer.ts), and their frames
// are on storage up to the crash. The row gets the figures the manifest gives and the video is
// queued, so a crash costs the tail of a recording, not the recording. It stays `complete: false`
// (there is no end-of-session summary) and the API shows it `orphaned`. The recorded time of an
// orphan is not billed: what the customer was to pay for died with the process.
import type { BlobStore } from '../blobs';
import { db } from '../db';
import { log } from '../log';
import { manifestKey, parseManifest, FRAME_PREFIX_BYTES, type FrameLine } from './format';
import { requestEncode } from './request-encode';

export async function settleOrphanedRecordings(proxyInstanceId: string, store: BlobStore): Promise<number> {
  const orphans = await db.$queryRaw<{ id: string; endedAt: Date | null }[]>`
    SELECT r."id", s."endedAt" FROM "Recording" r JOIN "SessionLog" s ON s."id" = r."sessionLogId"
    WHERE s."proxyInstanceId" = ${proxyInstanceId} AND s."state" <> 'active' AND NOT r."complete" AND r."mp4Status" IS NULL`;
  for (const orphan of orphans) {
    try {
      const text = (await store.get(manifestKey(orphan.id)))?.toString('utf8') ?? '';
      const frames = parseManifest(text).filter((l): l is FrameLine => l.k === 'f');
      const last = frames.at(-1);
      await db.recording.update({
        where: { id: orphan.id },
        data: {
          endedAt: orphan.endedAt ?? new Date(),
          durationMs: last?.t ?? 0,
          frameCount: frames.length,
          chunkCount: last ? last.chunk + 1 : 0,
          sizeBytes: BigInt(frames.reduce((n, f) => n + FRAME_PREFIX_BYTES + f.length, 0)),
          mp4Status: 'queued',
        },
      });
      await requestEncode(orphan.id);
    } catch (error) {
      log.error({ recordingId: orphan.id, err: (error as Error).message }, 'could not settle an orphaned recording');
    }
  }
  return orphans.length;
}
