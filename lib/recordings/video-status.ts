// A recording's video status (mp4Status with its error, size and time): every change of it goes
// through here, from the end of capture (queued), the export (running), the encode job (running,
// ready, queued again, failed) and its dead-letter queue (failed).
//   null ──capture ends──▶ queued ──encode──▶ running ──▶ ready
//                             ▲                  │  └────▶ failed ──export──▶ running
//                             └── retry / stop ──┘
import { blobs } from '../blobs';
import { db, type Mp4Status } from '../db';
import { videoKey } from './format';

export type VideoStatus = Mp4Status;

/** Ready in the row and its file on storage (a "ready" whose file is gone is made again). */
export async function videoIsReady(row: { id: string; mp4Status: string | null }): Promise<boolean> {
  return row.mp4Status === 'ready' && (await blobs().size(videoKey(row.id))) !== null;
}

interface Move {
  /** Only from these states (the move is lost to whoever changed it first). Any state when left out. */
  from?: (VideoStatus | null)[];
  /** Only a recording of this workspace. */
  workspaceId?: string;
}

/** Sets the status (clearing the error); false when the recording is gone or was not in `from`. */
async function move(
  id: string,
  data: { mp4Status: VideoStatus; mp4Error?: string | null; mp4SizeBytes?: bigint; mp4ReadyAt?: Date },
  where: Move = {},
): Promise<boolean> {
  const from = where.from ? { OR: where.from.map((status) => ({ mp4Status: status })) } : {};
  const { count } = await db.recording.updateMany({ where: { id, ...(where.workspaceId ? { workspaceId: where.workspaceId } : {}), ...from }, data });
  return count === 1;
}

export const videoQueued = (id: string, where?: Move) => move(id, { mp4Status: 'queued' }, where);
export const videoRunning = (id: string, where?: Move) => move(id, { mp4Status: 'running', mp4Error: null }, where);
export const videoReady = (id: string, sizeBytes: number) =>
  move(id, { mp4Status: 'ready', mp4SizeBytes: BigInt(sizeBytes), mp4ReadyAt: new Date(), mp4Error: null });
/** `error` is shown to users: the encoder's own words or a generic line, never internals. */
export const videoFailed = (id: string, error: string, where?: Move) => move(id, { mp4Status: 'failed', mp4Error: error }, where);
