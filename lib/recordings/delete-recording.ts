// DELETE /v1/replays/:id (owner/admin): the row, then its folder in blob storage (frames, manifest,
// summary and video). An encode job still queued for it finds no row and does nothing.
import { notFound } from '../api/errors';
import { blobs } from '../blobs';
import { db } from '../db';
import { recordingFolder } from './format';

export async function deleteRecording(workspaceId: string, id: string) {
  const row = await db.recording.findFirst({ where: { id, workspaceId }, select: { id: true } });
  if (!row) throw notFound('recording');
  const { count } = await db.recording.deleteMany({ where: { id: row.id, workspaceId } });
  if (count === 0) throw notFound('recording');
  await blobs().deleteFolder(recordingFolder(row.id));
  return { id: row.id };
}
